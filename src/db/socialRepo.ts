import { randomUUID } from "node:crypto";
import type { Character, Prisma, PrismaClient } from "@prisma/client";
import type { Logger } from "pino";
import type { SqlTx } from "./sql.js";

type Tx = Prisma.TransactionClient;
type Db = PrismaClient | Tx;

/**
 * Friends, friend requests and ignore lists (friendships, friend_requests, ignore_lists), and the
 * in-memory ignore lists a world room keeps for the accounts it has online.
 *
 * A friendship is one row per pair with characterAId < characterBId (a check in the migration).
 * The order is left to the database (LEAST/GREATEST), so it is the same order the check uses
 * whatever the collation; lookups ask for both orders.
 */

/** What another player may see of a character: nothing private. */
export const PUBLIC_CHARACTER = { id: true, name: true, combatLevel: true, isAgent: true } as const;
export type PublicCharacter = Pick<Character, "id" | "name" | "combatLevel" | "isAgent">;

/**
 * The one way a character is found by its name: ignoring case, as PostgreSQL's lower() folds it
 * (through the lower(name) unique index, so at most one).
 */
const BY_NAME = `SELECT "id", "name" FROM "characters" WHERE lower("name") = lower($1) LIMIT 1`;

/** A character's id and name by its name (any case), or null. */
export async function characterIdByName(sql: SqlTx, name: string): Promise<{ id: string; name: string } | null> {
  const rows = await sql.query<{ id: string; name: string }>(BY_NAME, [name]);
  return rows[0] ?? null;
}

/** The character by its name (any case), or null. */
export async function characterByName(prisma: PrismaClient, name: string): Promise<Character | null> {
  const rows = await prisma.$queryRawUnsafe<{ id: string }[]>(BY_NAME, name);
  return rows.length ? prisma.character.findUnique({ where: { id: rows[0].id } }) : null;
}

const pairOf = (a: string, b: string) => ({
  OR: [
    { characterAId: a, characterBId: b },
    { characterAId: b, characterBId: a },
  ],
});

// ---- friends -------------------------------------------------------------------------------

export async function areFriends(db: Db, a: string, b: string): Promise<boolean> {
  return (await db.friendship.count({ where: pairOf(a, b) })) > 0;
}

/** A character's friends (either side of the pair), oldest friendship first. */
export async function friendsOf(prisma: PrismaClient, characterId: string): Promise<Array<{ friend: PublicCharacter; since: Date }>> {
  const rows = await prisma.friendship.findMany({
    where: { OR: [{ characterAId: characterId }, { characterBId: characterId }] },
    include: { characterA: { select: PUBLIC_CHARACTER }, characterB: { select: PUBLIC_CHARACTER } },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((r) => ({ friend: r.characterAId === characterId ? r.characterB : r.characterA, since: r.createdAt }));
}

/** End a friendship (both see it end); false when there was none. */
export async function removeFriendship(prisma: PrismaClient, a: string, b: string): Promise<boolean> {
  return (await prisma.friendship.deleteMany({ where: pairOf(a, b) })).count > 0;
}

/** The pending request from one character to another, if any. */
export function pendingRequest(db: Db, fromId: string, toId: string) {
  return db.friendRequest.findFirst({ where: { fromCharacterId: fromId, toCharacterId: toId, status: "pending" } });
}

/** A new pending request; a second pending one for the same pair is refused by a unique index. */
export function createFriendRequest(prisma: PrismaClient, fromId: string, toId: string) {
  return prisma.friendRequest.create({
    data: { id: `fr_${randomUUID()}`, fromCharacterId: fromId, toCharacterId: toId },
    include: { to: { select: PUBLIC_CHARACTER } },
  });
}

/** Pending requests to and from a character, newest first. */
export async function pendingRequestsOf(prisma: PrismaClient, characterId: string) {
  const [incoming, outgoing] = await Promise.all([
    prisma.friendRequest.findMany({
      where: { toCharacterId: characterId, status: "pending" },
      include: { from: { select: PUBLIC_CHARACTER } },
      orderBy: { createdAt: "desc" },
    }),
    prisma.friendRequest.findMany({
      where: { fromCharacterId: characterId, status: "pending" },
      include: { to: { select: PUBLIC_CHARACTER } },
      orderBy: { createdAt: "desc" },
    }),
  ]);
  return { incoming, outgoing };
}

/**
 * Accept a pending request: it (and any pending request the other way) becomes accepted and the
 * pair become friends, in one transaction. False when the request is no longer pending.
 */
export async function acceptFriendRequest(prisma: PrismaClient, request: { id: string; fromCharacterId: string; toCharacterId: string }): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const now = new Date();
    const taken = await tx.friendRequest.updateMany({ where: { id: request.id, status: "pending" }, data: { status: "accepted", respondedAt: now } });
    if (taken.count === 0) return false;
    await tx.friendRequest.updateMany({
      where: { fromCharacterId: request.toCharacterId, toCharacterId: request.fromCharacterId, status: "pending" },
      data: { status: "accepted", respondedAt: now },
    });
    await tx.$executeRawUnsafe(
      `INSERT INTO "friendships" ("characterAId", "characterBId") VALUES (LEAST($1, $2), GREATEST($1, $2)) ON CONFLICT DO NOTHING`,
      request.fromCharacterId,
      request.toCharacterId,
    );
    return true;
  });
}

/** Close a pending request as declined (by its recipient) or cancelled (by its sender); false when it is no longer pending. */
export async function closeFriendRequest(prisma: PrismaClient, requestId: string, status: "declined" | "cancelled"): Promise<boolean> {
  const r = await prisma.friendRequest.updateMany({ where: { id: requestId, status: "pending" }, data: { status, respondedAt: new Date() } });
  return r.count > 0;
}

// ---- ignore lists --------------------------------------------------------------------------

/** An account may ignore at most this many characters. */
export const MAX_IGNORED = 200;

/** An account's ignore list with the ignored characters, oldest entry first. */
export function ignoreListOf(prisma: PrismaClient, accountId: string) {
  return prisma.ignoreEntry.findMany({ where: { accountId }, include: { ignored: { select: PUBLIC_CHARACTER } }, orderBy: { createdAt: "asc" } });
}

export async function ignoredIds(sql: SqlTx, accountId: string): Promise<string[]> {
  const rows = await sql.query<{ ignoredCharacterId: string }>(`SELECT "ignoredCharacterId" FROM "ignore_lists" WHERE "accountId" = $1`, [accountId]);
  return rows.map((r) => r.ignoredCharacterId);
}

export async function isIgnoring(db: Db, accountId: string, characterId: string): Promise<boolean> {
  return (await db.ignoreEntry.count({ where: { accountId, ignoredCharacterId: characterId } })) > 0;
}

export async function countIgnored(db: Db, accountId: string): Promise<number> {
  return db.ignoreEntry.count({ where: { accountId } });
}

/** Add to the list; false when the character was already on it. */
export async function addIgnore(prisma: PrismaClient, accountId: string, characterId: string): Promise<boolean> {
  const r = await prisma.ignoreEntry.createMany({ data: [{ accountId, ignoredCharacterId: characterId }], skipDuplicates: true });
  return r.count > 0;
}

/** Take off the list; false when the character was not on it. */
export async function removeIgnore(prisma: PrismaClient, accountId: string, characterId: string): Promise<boolean> {
  return (await prisma.ignoreEntry.deleteMany({ where: { accountId, ignoredCharacterId: characterId } })).count > 0;
}

/**
 * The ignore lists of the accounts a world room has online, so chat and trade requests can be
 * filtered without a query. Each session of an account holds its list (`hold` at join, `release`
 * at leave); the REST ignore endpoints call `reload` after writing, so a change takes effect for
 * players already online. Loads race safely: a load only lands if no later load of the same
 * account began meanwhile (a later load reads everything an earlier one could).
 */
export class IgnoreLists {
  private readonly lists = new Map<string, { ignored: Set<string>; holders: number; loads: number }>();

  constructor(
    private readonly sql: SqlTx,
    private readonly logger?: Logger,
  ) {}

  /** A session of this account is joining: keep its list (loaded once it resolves). */
  async hold(accountId: string): Promise<void> {
    const entry = this.lists.get(accountId) ?? { ignored: new Set<string>(), holders: 0, loads: 0 };
    entry.holders++;
    this.lists.set(accountId, entry);
    await this.reload(accountId);
  }

  /** A session of this account left: the list goes with the account's last session. */
  release(accountId: string): void {
    const entry = this.lists.get(accountId);
    if (!entry) return;
    if (--entry.holders <= 0) this.lists.delete(accountId);
  }

  /** Read the account's list again (nothing when the account has no session here). */
  async reload(accountId: string): Promise<void> {
    const entry = this.lists.get(accountId);
    if (!entry) return;
    const load = ++entry.loads;
    try {
      const ids = await ignoredIds(this.sql, accountId);
      if (this.lists.get(accountId) === entry && entry.loads === load) entry.ignored = new Set(ids);
    } catch (err) {
      this.logger?.error({ err, accountId }, "could not load an ignore list");
    }
  }

  /** Does this account ignore this character? */
  ignores(accountId: string, characterId: string): boolean {
    return this.lists.get(accountId)?.ignored.has(characterId) ?? false;
  }
}
