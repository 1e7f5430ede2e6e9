import { randomUUID } from "node:crypto";
import { isIP } from "node:net";
import type { PrismaClient } from "@prisma/client";
import { NOW_UTC, type SqlTx } from "./sql.js";

/** The longest ban by address: addresses change hands (a home's is reassigned, a school's is shared). */
export const ADDRESS_BAN_MAX_MS = 30 * 86_400_000;

/** Who a ban by address refuses: new guests and guests' logins, or every login but the staff's. */
export type AddressBanScope = "guests" | "all";

/** An address as the bans and sessions keep it: an IPv4 address seen as IPv6 (`::ffff:1.2.3.4`) is the IPv4 one. */
export function normalAddress(address: string): string {
  const a = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  return mapped ? mapped[1] : a;
}

/** Is it one address (IPv4 or IPv6, no range)? */
export const isAddress = (address: string) => isIP(normalAddress(address)) !== 0;

/** The ban in force on this address (the widest, then the longest), if any. */
export async function addressBanOf(sql: SqlTx, address: string | null | undefined): Promise<{ scope: AddressBanScope; reason: string; endsAt: string } | null> {
  if (!address) return null;
  const [row] = await sql.query<{ scope: AddressBanScope; reason: string; endsAt: Date | string }>(
    `SELECT "scope", "reason", "endsAt" FROM "address_bans"
      WHERE "address" = $1 AND "liftedAt" IS NULL AND "endsAt" > ${NOW_UTC}
      ORDER BY ("scope" = 'all') DESC, "endsAt" DESC LIMIT 1`,
    [normalAddress(address)],
  );
  return row ? { scope: row.scope, reason: row.reason, endsAt: new Date(row.endsAt).toISOString() } : null;
}

/** Does the ban refuse this login? Staff are never refused by address; `guests` refuses guests only. */
export const refusesLogin = (ban: { scope: AddressBanScope } | null, who: { guest: boolean; staff: boolean }) =>
  ban !== null && !who.staff && (ban.scope === "all" || who.guest);

export const addressBanMessage = (ban: { reason: string; endsAt: string }) =>
  `Logins from your address are refused until ${ban.endsAt} (${ban.reason}); if you share it (a school, a café), ask the staff`;

export function createAddressBan(
  prisma: PrismaClient,
  ban: { address: string; scope: AddressBanScope; reason: string; durationMs: number; byAccountId: string | null; byName: string },
) {
  return prisma.addressBan.create({
    data: {
      id: `ab_${randomUUID()}`,
      address: normalAddress(ban.address),
      scope: ban.scope,
      reason: ban.reason,
      endsAt: new Date(Date.now() + ban.durationMs),
      byAccountId: ban.byAccountId,
      byName: ban.byName,
    },
  });
}

/** Lift the bans in force on an address; how many. */
export async function liftAddressBans(prisma: PrismaClient, address: string, by: string, reason: string | null): Promise<number> {
  const r = await prisma.addressBan.updateMany({
    where: { address: normalAddress(address), liftedAt: null, endsAt: { gt: new Date() } },
    data: { liftedAt: new Date(), liftedByName: by, liftReason: reason },
  });
  return r.count;
}
