import type { SqlRunner } from "../../db/sql.js";
import { STAFF_ROLES } from "../../game/staff.js";
import type { z } from "zod";
import { SKILLS, type DuelStandingEntry, type HiscoreEntry as HiscoreEntrySchema, type SkillName } from "../../protocol/index.js";

export type HiscoreEntry = z.infer<typeof HiscoreEntrySchema>;
export type DuelStanding = z.infer<typeof DuelStandingEntry>;

/**
 * The hiscores, ranked by the database as saved (a character online counts as of its last save):
 * per skill by experience, overall by total level then total experience. Equal figures share a
 * rank (the next rank counts them all, as 1, 2, 2, 4); within a rank, by name. Every character
 * counts except those of staff accounts (moderator, admin) and of accounts banned now; agents are
 * marked as agents.
 */

/** A skill, or the total of all of them. */
export type HiscoreSkill = SkillName | "overall";
export const HISCORE_SKILLS = ["overall", ...SKILLS] as const satisfies readonly HiscoreSkill[];
export const HISCORES_PAGE_SIZE = 25;

export interface HiscoresPage {
  /** Characters ranked (every page's). */
  total: number;
  entries: HiscoreEntry[];
}

/** A character's rank, level and experience in each skill and overall. */
export type CharacterRanks = Record<HiscoreSkill, { rank: number; level: number; xp: number }>;

// Column names come from SKILLS alone (never from a request): "woodcuttingXp", "woodcuttingLevel".
const xpOf = (skill: SkillName) => `c."${skill}Xp"`;
const levelOf = (skill: SkillName) => `c."${skill}Level"`;
const TOTAL_LEVEL = `(${SKILLS.map(levelOf).join(" + ")})`;
const TOTAL_XP = `(${SKILLS.map((s) => `${xpOf(s)}::bigint`).join(" + ")})`;

/** The level and experience a skill ranks by, as SQL over `c` (characters). */
function figures(skill: HiscoreSkill): { level: string; xp: string; order: string } {
  if (skill === "overall") return { level: TOTAL_LEVEL, xp: TOTAL_XP, order: `${TOTAL_LEVEL} DESC, ${TOTAL_XP} DESC` };
  return { level: levelOf(skill), xp: `${xpOf(skill)}::bigint`, order: `${xpOf(skill)} DESC` };
}

/** The staff roles (moderator, admin): their accounts are left out. Names only, from STAFF_ROLES. */
const STAFF = STAFF_ROLES.filter((role) => role !== "player")
  .map((role) => `'${role}'`)
  .join(", ");
/**
 * Whether character `c` of account `u` is on the hiscores: not a staff account's, not a banned
 * account's (a ban in force as staffRepo's inForce says: not lifted, not past its end).
 */
const ELIGIBLE = `NOT (u.roles && ARRAY[${STAFF}]::text[])
    AND NOT EXISTS (
      SELECT 1 FROM sanctions s
      WHERE s."accountId" = u.id AND s.kind = 'ban' AND s."liftedAt" IS NULL AND (s."endsAt" IS NULL OR s."endsAt" > now())
    )`;
/** The characters on the hiscores. */
const COUNTED = `FROM characters c JOIN users u ON u.id = c."accountId" WHERE ${ELIGIBLE}`;

interface Row {
  id: string;
  name: string;
  isAgent: boolean;
  level: number | string;
  xp: number | string | bigint;
  rank: number | string | bigint;
  total?: number | string | bigint;
}

const entryOf = (r: Row): HiscoreEntry => ({
  rank: Number(r.rank),
  characterId: r.id,
  name: r.name,
  level: Number(r.level),
  xp: Number(r.xp),
  isAgent: r.isAgent,
});

/** One page (from 1) of a skill's ranking. */
export async function hiscoresPage(sql: SqlRunner, skill: HiscoreSkill, page: number): Promise<HiscoresPage> {
  const f = figures(skill);
  const rows = await sql.query<Row>(
    `WITH ranked AS (
       SELECT c.id, c.name, c."isAgent", ${f.level} AS level, ${f.xp} AS xp,
              rank() OVER (ORDER BY ${f.order}) AS rank, count(*) OVER () AS total
       ${COUNTED}
     )
     SELECT * FROM ranked ORDER BY rank, lower(name), id LIMIT $1 OFFSET $2`,
    [HISCORES_PAGE_SIZE, (page - 1) * HISCORES_PAGE_SIZE],
  );
  // A page past the end has no rows to carry the total: count it on its own.
  const total = rows.length ? Number(rows[0].total) : Number((await sql.query<{ n: number | string | bigint }>(`SELECT count(*) AS n ${COUNTED}`))[0]?.n ?? 0);
  return { total, entries: rows.map(entryOf) };
}

/** A character's ranks by name (any case), or undefined when no counted character has it. */
export async function characterRanks(
  sql: SqlRunner,
  name: string,
): Promise<{ characterId: string; name: string; isAgent: boolean; ranks: CharacterRanks } | undefined> {
  const columns = HISCORE_SKILLS.map((skill, i) => {
    const f = figures(skill);
    return `${f.level} AS level${i}, ${f.xp} AS xp${i}, rank() OVER (ORDER BY ${f.order}) AS rank${i}`;
  }).join(",\n              ");
  const [row] = await sql.query<Record<string, unknown>>(
    `WITH ranked AS (
       SELECT c.id, c.name, c."isAgent", ${columns}
       ${COUNTED}
     )
     SELECT * FROM ranked WHERE lower(name) = lower($1) LIMIT 1`,
    [name],
  );
  if (!row) return undefined;
  const ranks = Object.fromEntries(
    HISCORE_SKILLS.map((skill, i) => [skill, { rank: Number(row[`rank${i}`]), level: Number(row[`level${i}`]), xp: Number(row[`xp${i}`]) }]),
  ) as CharacterRanks;
  return { characterId: row.id as string, name: row.name as string, isAgent: row.isAgent as boolean, ranks };
}

/**
 * One page (from 1) of the duel rankings: every counted character with a settled duel, by wins,
 * then the worth of the stakes won (a draw settles nothing and counts for neither).
 */
export async function duelRankings(sql: SqlRunner, page: number): Promise<{ total: number; entries: DuelStanding[] }> {
  const rows = await sql.query<Record<string, unknown>>(
    `WITH results AS (
       SELECT "winnerId" AS id, 1 AS win, 0 AS loss, "loserValue" AS won FROM duels WHERE "winnerId" IS NOT NULL
       UNION ALL
       SELECT "loserId", 0, 1, 0 FROM duels WHERE "loserId" IS NOT NULL
     ), totals AS (
       SELECT id, sum(win) AS wins, sum(loss) AS losses, sum(won) AS "stakesWon" FROM results GROUP BY id
     ), ranked AS (
       SELECT c.id, c.name, c."isAgent", t.wins, t.losses, t."stakesWon",
              rank() OVER (ORDER BY t.wins DESC, t."stakesWon" DESC) AS rank, count(*) OVER () AS total
       FROM totals t JOIN characters c ON c.id = t.id JOIN users u ON u.id = c."accountId"
       WHERE ${ELIGIBLE}
     )
     SELECT * FROM ranked ORDER BY rank, lower(name), id LIMIT $1 OFFSET $2`,
    [HISCORES_PAGE_SIZE, (page - 1) * HISCORES_PAGE_SIZE],
  );
  const entries = rows.map((r) => ({
    rank: Number(r.rank),
    characterId: r.id as string,
    name: r.name as string,
    wins: Number(r.wins),
    losses: Number(r.losses),
    stakesWon: Number(r.stakesWon),
    isAgent: r.isAgent as boolean,
  }));
  return { total: rows.length ? Number(rows[0].total) : 0, entries };
}
