import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { readFile, rename, stat, writeFile } from "node:fs/promises";
import { z } from "zod";
import type { SqlTx } from "./sql.js";

/**
 * A backup's manifest (README "Backups"): the file `<backup>.manifest.json` beside the backup,
 * holding the backup's size and SHA-256 checksum, the server version and migrations it was taken
 * with, when, and what the database held (rows per table, characters, items by total per item id).
 * A restore checks the backup against it before it changes anything; `restore --verify` compares
 * the restored database's counts with it.
 */

export class BackupError extends Error {
  /** Lines that explain the message (each difference, each audit mismatch). */
  readonly details: string[];
  constructor(message: string, details: string[] = []) {
    super(message);
    this.name = "BackupError";
    this.details = details;
  }
}

export const MANIFEST_FORMAT = "arena-world-server backup 1";

const Count = z.number().int().nonnegative();

const BackupCounts = z.object({
  /** Rows of the characters table. */
  characters: Count,
  /** Rows per table of the public schema, by table name. */
  tables: z.record(z.string(), Count),
  /** Items held by characters (pack, worn, bank), total per item id. */
  items: z.record(z.string(), Count),
});
export type BackupCounts = z.infer<typeof BackupCounts>;

const BackupManifest = z.object({
  format: z.literal(MANIFEST_FORMAT),
  /** The backup's file name when it was written (a renamed pair still restores). */
  file: z.string(),
  bytes: Count,
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  serverVersion: z.string(),
  createdAt: z.iso.datetime(),
  /** The migrations the database had applied (_arena_migrations), by name. */
  migrations: z.array(z.string()),
  counts: BackupCounts,
});
export type BackupManifest = z.infer<typeof BackupManifest>;

/** Where the manifest of the backup `file` is. */
export const manifestPathOf = (file: string) => `${file}.manifest.json`;

/** The size and SHA-256 checksum of a file, read from disk. */
export async function digestOf(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest("hex") };
}

/** Write the manifest beside its backup (written beside and renamed: never half a file). */
export async function writeManifest(file: string, manifest: BackupManifest): Promise<string> {
  const to = manifestPathOf(file);
  const part = `${to}.${process.pid}.part`;
  await writeFile(part, `${JSON.stringify(BackupManifest.parse(manifest), null, 2)}\n`);
  await rename(part, to);
  return to;
}

/** The manifest of the backup `file`, or undefined when there is none; refused when it is not one. */
export async function readManifest(file: string): Promise<BackupManifest | undefined> {
  const from = manifestPathOf(file);
  if (!existsSync(from)) return undefined;
  let parsed: z.ZodSafeParseResult<BackupManifest>;
  try {
    parsed = BackupManifest.safeParse(JSON.parse(await readFile(from, "utf8")));
  } catch (err) {
    throw new BackupError(`The manifest ${from} is not JSON (${(err as Error).message}): it cannot vouch for ${file}`);
  }
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BackupError(`The manifest ${from} is not a backup manifest (${issue.path.join(".") || "it"}: ${issue.message}): it cannot vouch for ${file}`);
  }
  return parsed.data;
}

/** Refused unless `file` is, byte for byte, what `manifest` describes (size, then checksum). */
export async function checkAgainstManifest(file: string, manifest: BackupManifest): Promise<void> {
  const size = (await stat(file)).size;
  if (size !== manifest.bytes) {
    throw new BackupError(`${file} is ${size} bytes but its manifest says ${manifest.bytes}: the file is truncated or changed`);
  }
  const { sha256 } = await digestOf(file);
  if (sha256 !== manifest.sha256) {
    throw new BackupError(
      `${file} does not match the SHA-256 checksum in its manifest (${sha256} instead of ${manifest.sha256}): the file is damaged or changed`,
    );
  }
}

/** The migrations a database has applied, by name (none when it has no _arena_migrations). */
export async function migrationsOf(sql: SqlTx): Promise<string[]> {
  const [has] = await sql.query<{ t: string | null }>(`SELECT to_regclass('public._arena_migrations')::text AS t`);
  if (!has?.t) return [];
  return (await sql.query<{ name: string }>(`SELECT "name" FROM "_arena_migrations" ORDER BY "name"`)).map((r) => r.name);
}

/** What a database holds, counted (rows per table, characters, items by total per item id). */
export async function countsOf(sql: SqlTx): Promise<BackupCounts> {
  const names = (await sql.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`)).map(
    (r) => r.name,
  );
  const tables: Record<string, number> = {};
  if (names.length) {
    const rows = await sql.query<{ name: string; n: number }>(
      names.map((name, i) => `SELECT $${i + 1}::text AS name, count(*)::float8 AS n FROM "${name.replace(/"/g, '""')}"`).join(" UNION ALL "),
      names,
    );
    for (const r of rows) tables[r.name] = Number(r.n);
  }
  const items: Record<string, number> = {};
  if (["inventory", "equipment", "bank"].every((t) => t in tables)) {
    const rows = await sql.query<{ itemId: string; n: number }>(
      `SELECT "itemId", SUM("quantity")::float8 AS n FROM (
         SELECT "itemId", "quantity" FROM "inventory" UNION ALL SELECT "itemId", "quantity" FROM "equipment" UNION ALL SELECT "itemId", "quantity" FROM "bank"
       ) h GROUP BY "itemId" ORDER BY "itemId"`,
    );
    for (const r of rows) items[r.itemId] = Number(r.n);
  }
  return { characters: tables.characters ?? 0, tables, items };
}

/** Each way `found` differs from `expected`, one line each (none: they match). */
export function countDifferences(expected: BackupCounts, found: BackupCounts): string[] {
  const lines: string[] = [];
  if (expected.characters !== found.characters) lines.push(`characters: ${found.characters} restored, ${expected.characters} in the manifest`);
  const each = (what: string, a: Record<string, number>, b: Record<string, number>) => {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      if ((a[key] ?? 0) !== (b[key] ?? 0)) lines.push(`${what} ${key}: ${b[key] ?? 0} restored, ${a[key] ?? 0} in the manifest`);
    }
  };
  each("rows of table", expected.tables, found.tables);
  each("items", expected.items, found.items);
  return lines;
}

/** One line of counts: characters, items (ids and total), rows (tables and total). */
export function countsLine(counts: BackupCounts): string {
  const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
  const ids = Object.keys(counts.items).length;
  return `${counts.characters} characters, ${sum(counts.items)} items of ${ids} item ids, ${sum(counts.tables)} rows in ${Object.keys(counts.tables).length} tables`;
}
