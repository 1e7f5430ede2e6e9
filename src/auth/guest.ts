import { randomUUID } from "node:crypto";
import { addressBanMessage, addressBanOf } from "../db/addressBans.js";
import { NOW_UTC, type SqlTx } from "../db/sql.js";
import { GUEST_TOKEN_TTL_SECONDS, signToken } from "./tokens.js";

export interface GuestIdentity {
  token: string;
  accountId: string;
  expiresIn: number;
}

/** A new guest refused because its address is banned (either scope of a ban by address refuses new guests). */
export class AddressBannedError extends Error {
  readonly code = "ADDRESS_BANNED";
}

/**
 * A temporary guest account (anonymous mode): a users row marked isGuest and a server token for
 * it; refused (AddressBannedError) from an address under a ban.
 */
export async function createGuest(sql: SqlTx, secret: string, address: string): Promise<GuestIdentity> {
  const ban = await addressBanOf(sql, address);
  if (ban) throw new AddressBannedError(addressBanMessage(ban));
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
