import { randomUUID } from "node:crypto";
import type { Prisma, PrismaClient, Sanction } from "@prisma/client";
import { roleOf, type SanctionKind, type StaffRole } from "../game/staff.js";

/**
 * Staff data in the database (migration 0006_staff): an account's standing (its role and the
 * sanctions in force), sanctions, player reports and the append-only audit log. Every privileged
 * act writes its audit row in the transaction that makes the change (src/staff/moderation.ts), so
 * a failed audit write leaves nothing changed.
 */

type Db = PrismaClient | Prisma.TransactionClient;

/** A sanction in force, as the rest of the server reads it. */
export interface ActiveSanction {
  id: string;
  kind: SanctionKind;
  reason: string;
  /** null: permanent. */
  endsAt: Date | null;
  createdAt: Date;
}

/** An account's standing: does it exist, its staff role, and the ban and mute in force (or null). */
export interface Standing {
  exists: boolean;
  role: StaffRole;
  ban: ActiveSanction | null;
  mute: ActiveSanction | null;
}

/** A standing as JSON crosses processes and reaches clients: dates as ISO strings. */
export interface StandingView {
  role: StaffRole;
  ban: { reason: string; until: string | null } | null;
  mute: { reason: string; until: string | null } | null;
}

export const NO_STANDING: Standing = { exists: false, role: "player", ban: null, mute: null };

/** Sanctions in force at `now`: not lifted, not past their end. */
export const inForce = (now: Date): Prisma.SanctionWhereInput => ({ liftedAt: null, OR: [{ endsAt: null }, { endsAt: { gt: now } }] });

const active = (s: Sanction): ActiveSanction => ({ id: s.id, kind: s.kind as SanctionKind, reason: s.reason, endsAt: s.endsAt, createdAt: s.createdAt });

/** The account's standing now: two lookups by index. */
export async function standingOf(db: Db, accountId: string, now = new Date()): Promise<Standing> {
  const [user, sanctions] = await Promise.all([
    db.user.findUnique({ where: { id: accountId }, select: { roles: true } }),
    db.sanction.findMany({ where: { accountId, ...inForce(now) }, orderBy: { createdAt: "desc" } }),
  ]);
  if (!user) return NO_STANDING;
  const of = (kind: SanctionKind) => {
    const s = sanctions.find((x) => x.kind === kind);
    return s ? active(s) : null;
  };
  return { exists: true, role: roleOf(user.roles), ban: of("ban"), mute: of("mute") };
}

export function standingView(s: Pick<Standing, "role" | "ban" | "mute">): StandingView {
  const view = (x: ActiveSanction | null) => (x ? { reason: x.reason, until: x.endsAt ? x.endsAt.toISOString() : null } : null);
  return { role: s.role, ban: view(s.ban), mute: view(s.mute) };
}

/** The sanction of that kind in force on the account, or null. */
export async function activeSanction(db: Db, accountId: string, kind: SanctionKind, now = new Date()): Promise<Sanction | null> {
  return db.sanction.findFirst({ where: { accountId, kind, ...inForce(now) }, orderBy: { createdAt: "desc" } });
}

export interface NewSanction {
  accountId: string;
  kind: SanctionKind;
  reason: string;
  endsAt: Date | null;
  byAccountId: string | null;
  byName: string;
  targetName: string;
}

/** Add a sanction; one of the same kind in force is lifted by it ("replaced"). */
export async function addSanction(tx: Prisma.TransactionClient, s: NewSanction, now: Date): Promise<Sanction> {
  await tx.sanction.updateMany({
    where: { accountId: s.accountId, kind: s.kind, ...inForce(now) },
    data: { liftedAt: now, liftedByAccountId: s.byAccountId, liftedByName: s.byName, liftReason: "replaced by a new sanction" },
  });
  return tx.sanction.create({ data: { id: `s_${randomUUID()}`, ...s, createdAt: now } });
}

/** Lift the sanction of that kind in force; null when there is none. */
export async function liftSanction(
  tx: Prisma.TransactionClient,
  accountId: string,
  kind: SanctionKind,
  by: { accountId: string | null; name: string },
  reason: string | undefined,
  now: Date,
): Promise<Sanction | null> {
  const current = await activeSanction(tx, accountId, kind, now);
  if (!current) return null;
  return tx.sanction.update({
    where: { id: current.id },
    data: { liftedAt: now, liftedByAccountId: by.accountId, liftedByName: by.name, liftReason: reason ?? null },
  });
}

/** Set the account's one staff role (its roles become exactly [role]). */
export async function setRole(tx: Prisma.TransactionClient, accountId: string, role: StaffRole): Promise<void> {
  await tx.user.update({ where: { id: accountId }, data: { roles: [role] } });
}

/** One audit row: who, what, to whom, with what, why, where. */
export interface AuditEntry {
  actorAccountId: string | null;
  actorCharacterId?: string | null;
  actorName: string;
  via: "game" | "rest" | "cli" | "monitor" | "server";
  kind: string;
  targetAccountId?: string | null;
  targetCharacterId?: string | null;
  targetName?: string | null;
  args?: Record<string, unknown>;
  reason?: string | null;
  processId: string;
}

export async function appendAudit(db: Db, e: AuditEntry): Promise<bigint> {
  const row = await db.auditLog.create({
    data: {
      actorAccountId: e.actorAccountId,
      actorCharacterId: e.actorCharacterId ?? null,
      actorName: e.actorName,
      via: e.via,
      kind: e.kind,
      targetAccountId: e.targetAccountId ?? null,
      targetCharacterId: e.targetCharacterId ?? null,
      targetName: e.targetName ?? null,
      args: (e.args ?? {}) as Prisma.InputJsonValue,
      reason: e.reason ?? null,
      processId: e.processId,
    },
    select: { id: true },
  });
  return row.id;
}

/** Who a staff act names: a character (by name, any case, or id) or an account id, with the account's role. */
export interface StaffTarget {
  accountId: string;
  characterId: string | null;
  name: string;
  role: StaffRole;
}

/**
 * The target a staff act names: a character's name (any case), a character id, or an account id
 * (its first character names it). Null when nothing matches.
 */
export async function findTarget(db: Db, nameOrId: string): Promise<StaffTarget | null> {
  const byName = await db.$queryRawUnsafe<{ id: string }[]>(`SELECT "id" FROM "characters" WHERE lower("name") = lower($1) LIMIT 1`, nameOrId);
  const character = await db.character.findUnique({ where: { id: byName[0]?.id ?? nameOrId }, select: { id: true, name: true, accountId: true } });
  if (character) {
    const owner = await db.user.findUnique({ where: { id: character.accountId }, select: { roles: true } });
    return { accountId: character.accountId, characterId: character.id, name: character.name, role: roleOf(owner?.roles ?? []) };
  }
  const account = await db.user.findUnique({
    where: { id: nameOrId },
    select: { id: true, displayName: true, roles: true, characters: { select: { id: true, name: true }, orderBy: { createdAt: "asc" }, take: 1 } },
  });
  if (!account) return null;
  const first = account.characters[0];
  return { accountId: account.id, characterId: first?.id ?? null, name: first?.name ?? account.displayName ?? account.id, role: roleOf(account.roles) };
}
