import { randomUUID } from "node:crypto";
import { NOW_UTC, type SqlTx } from "../db/sql.js";
import { GUEST_TOKEN_TTL_SECONDS, signToken } from "./tokens.js";

export interface GuestIdentity {
  token: string;
  accountId: string;
  expiresIn: number;
}

/** A temporary guest account (anonymous mode): a users row marked isGuest and a server token for it. */
export async function createGuest(sql: SqlTx, secret: string): Promise<GuestIdentity> {
  const accountId = `guest_${randomUUID()}`;
  await sql.query(`INSERT INTO "users" ("id", "isGuest", "roles", "createdAt", "lastSeenAt") VALUES ($1, true, ARRAY['player'], ${NOW_UTC}, ${NOW_UTC})`, [
    accountId,
  ]);
  return {
    token: signToken({ sub: accountId, role: "player", guest: true }, secret, GUEST_TOKEN_TTL_SECONDS),
    accountId,
    expiresIn: GUEST_TOKEN_TTL_SECONDS,
  };
}
