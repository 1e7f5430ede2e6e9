import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import { GUEST_TOKEN_TTL_SECONDS, signToken } from "./tokens.js";

export interface GuestIdentity {
  token: string;
  accountId: string;
  expiresIn: number;
}

/** A temporary guest account (anonymous mode): a users row marked isGuest and a server token for it. */
export async function createGuest(prisma: PrismaClient, secret: string): Promise<GuestIdentity> {
  const accountId = `guest_${randomUUID()}`;
  await prisma.user.create({ data: { id: accountId, isGuest: true, roles: ["player"] } });
  return {
    token: signToken({ sub: accountId, role: "player", guest: true }, secret, GUEST_TOKEN_TTL_SECONDS),
    accountId,
    expiresIn: GUEST_TOKEN_TTL_SECONDS,
  };
}
