import { rm } from "node:fs/promises";
import path from "node:path";
import type { PrismaClient } from "@prisma/client";
import type { Logger } from "pino";
import type { Config } from "../config.js";
import { startLocalPostgres } from "./localPostgres.js";
import { applyMigrations } from "./migrate.js";
import { openPglite } from "./pglite.js";
import { endThreadStartedAhead } from "./pgliteThread.js";
import { embeddedHolder, holdEmbedded } from "./embeddedHolder.js";
import { discardTemplate, isNewPgliteDir, madeTemplateFolder, pgliteTemplate, pgliteTemplateFolder } from "./pgliteTemplate.js";
import type { OpenedDriver, SqlRunner } from "./sql.js";

export type DatabaseKind = "pglite" | "postgres" | "local-postgres";

export interface Database {
  kind: DatabaseKind;
  prisma: PrismaClient;
  sql: SqlRunner;
  /** Round trip to the database; throws when it is down. */
  ping(): Promise<void>;
  /**
   * The embedded database's whole data folder as one tar file (written beside and renamed), taken
   * between two of its statements, so consistent while the server runs. Backups go through
   * src/db/backup.ts's backupEmbedded, which writes and checks the manifest beside the file. Absent
   * for PostgreSQL: pg_dump backs it up.
   */
  backup?(file: string): Promise<void>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** postgres://... : PostgreSQL through @prisma/adapter-pg. */
  databaseUrl?: string;
  /** Start a PostgreSQL server from the installed binaries under `${dataDir}/postgres`. */
  useLocalPostgres?: boolean;
  /** Where the embedded database keeps its files; undefined with neither option above = in memory. */
  dataDir?: string;
  logger: Logger;
  /** Apply prisma/migrations at open (default true). */
  migrate?: boolean;
  /** Where the embedded database's migrated template is kept (default: src/db/pgliteTemplate.ts's cache folder). */
  templateDir?: string;
}

export function databaseOptionsFrom(config: Config, logger: Logger): OpenDatabaseOptions {
  return { databaseUrl: config.databaseUrl, useLocalPostgres: config.useLocalPostgres, dataDir: config.dataDir, logger };
}

/** PostgreSQL by URL (its driver and Prisma's adapter are loaded only by a server that uses them). */
async function openPostgresAt(url: string): Promise<OpenedDriver> {
  const { openPostgres } = await import("./postgres.js");
  return openPostgres(url);
}

/**
 * The embedded database in `dir` (in memory when undefined). A new one that is to be migrated is a
 * copy of the migrated template (src/db/pgliteTemplate.ts: a data folder copied, or a tar loaded
 * in memory); one the template cannot make (a damaged template) is made anew.
 */
async function openEmbedded(dir: string | undefined, options: OpenDatabaseOptions, onAdapter: (adapter: unknown) => void): Promise<OpenedDriver> {
  if (options.migrate === false || !isNewPgliteDir(dir)) return openPglite(dir, undefined, onAdapter);
  const { logger, templateDir } = options;
  try {
    const made = dir ? madeTemplateFolder(templateDir) : undefined;
    return await openPglite(dir, made ?? (await (dir ? pgliteTemplateFolder : pgliteTemplate)(logger, templateDir)), onAdapter);
  } catch (err) {
    logger.warn({ err }, "the embedded database's template could not be loaded: making the database anew");
    await discardTemplate(templateDir);
    if (dir) await rm(dir, { recursive: true, force: true });
    return openPglite(dir, undefined, onAdapter);
  }
}

/** Open the configured database, migrate it, and hand back Prisma plus the raw SQL channel. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const { logger } = options;
  // Prisma's client loads while the database opens (for the embedded one, its thread starts first).
  const client = import("@prisma/client");
  client.catch(() => {});
  // The embedded database's Prisma is made, and its engine started (its query compiler loaded: no
  // query yet), as soon as the adapter exists, while PGlite opens on its thread.
  const early: { adapter?: unknown; prisma?: Promise<PrismaClient> } = {};
  const dropEarly = () => void early.prisma?.then((p) => p.$disconnect()).catch(() => {});
  const startPrisma = (adapter: unknown) => {
    dropEarly();
    early.adapter = adapter;
    early.prisma = client.then(({ PrismaClient }) => new PrismaClient({ adapter: adapter as never }));
    early.prisma.then((p) => p.$connect()).catch(() => {});
  };
  let kind: DatabaseKind;
  let opened: OpenedDriver;
  let stopServer: (() => Promise<void>) | undefined;

  if (options.databaseUrl || options.useLocalPostgres) endThreadStartedAhead();
  if (options.databaseUrl) {
    kind = "postgres";
    opened = await openPostgresAt(options.databaseUrl);
  } else if (options.useLocalPostgres) {
    kind = "local-postgres";
    const local = await startLocalPostgres({ dataDir: path.join(options.dataDir ?? ".data", "postgres"), logger });
    stopServer = local.stop;
    try {
      opened = await openPostgresAt(local.url);
    } catch (err) {
      await local.stop();
      throw err;
    }
  } else {
    kind = "pglite";
    // One process at a time: two writing one folder would break it.
    const holder = options.dataDir ? embeddedHolder(options.dataDir) : undefined;
    if (holder) {
      throw new Error(
        `Another process (pid ${holder}) holds the embedded database in ${options.dataDir}: stop it first, or use another DATA_DIR ` +
          `(if no server runs there, the file ${path.join(options.dataDir!, "embedded.pid")} is left over from a crash: delete it)`,
      );
    }
    try {
      opened = await openEmbedded(options.dataDir ? path.join(options.dataDir, "pglite") : undefined, options, startPrisma);
    } catch (err) {
      dropEarly();
      throw err;
    }
    // The operator's commands (npm run admin) see that this process holds the folder's embedded database.
    if (options.dataDir) {
      const release = holdEmbedded(options.dataDir);
      const close = opened.close;
      opened = { ...opened, close: () => close().finally(release) };
    }
  }

  let prisma: PrismaClient;
  try {
    if (options.migrate !== false) await applyMigrations(opened.sql, logger);
    const made = early.adapter === opened.adapter ? early.prisma : undefined;
    prisma = made ? await made : new (await client).PrismaClient({ adapter: opened.adapter as never });
  } catch (err) {
    dropEarly();
    await opened.close().catch(() => {});
    await stopServer?.();
    throw err;
  }

  logger.info({ database: kind }, "database ready");
  let closed = false;
  return {
    kind,
    prisma,
    sql: opened.sql,
    ping: async () => {
      await opened.sql.query("SELECT 1");
    },
    ...("dump" in opened ? { backup: (opened as { dump(file: string): Promise<void> }).dump } : {}),
    close: async () => {
      if (closed) return;
      closed = true;
      await prisma.$disconnect().catch(() => {});
      await opened.close().catch(() => {});
      await stopServer?.();
    },
  };
}
