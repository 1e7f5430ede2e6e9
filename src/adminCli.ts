import { loadConfig } from "./config.js";
import { databaseOptionsFrom, openDatabase } from "./db/client.js";
import { heldByServer, runCli } from "./cli.js";
import { isStaffRole, roleOf } from "./game/staff.js";
import { GameError } from "./game/types.js";
import { createLogger } from "./logger.js";
import { Moderation } from "./staff/moderation.js";

/**
 * `npm run admin -- <command>`: the operator's staff commands, run against the configured
 * database (DATABASE_URL, or the embedded one of DATA_DIR):
 *   grant <character name | account id> <moderator | admin>
 *   revoke <character name | account id>        (back to player)
 *   list                                        (every staff account)
 * Each change writes its audit row (actor "operator", via "cli"). A running server on PostgreSQL
 * picks a change up within STAFF_POLL_MS; the embedded database takes one process at a time, so
 * with it the server must be stopped first (or use POST /api/admin/roles with an admin's token).
 */
const USAGE = `usage: npm run admin -- grant <character name | account id> <moderator | admin>
       npm run admin -- revoke <character name | account id>
       npm run admin -- list`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || !["grant", "revoke", "list"].includes(command)) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig(process.env);
  const logger = createLogger({ level: "warn" });
  const instead =
    `Stop the server first, then run this again (the role counts from its next start), or, while it runs,\n` +
    `use POST /api/admin/roles with an admin's token. On PostgreSQL (DATABASE_URL) this command works while the server runs.`;
  if (heldByServer(config, instead)) return 1;
  const db = await openDatabase(databaseOptionsFrom(config, logger));
  try {
    if (command === "list") {
      const staff = await db.prisma.user.findMany({ where: { roles: { hasSome: ["moderator", "admin"] } }, orderBy: { createdAt: "asc" } });
      for (const u of staff) {
        const first = await db.prisma.character.findFirst({ where: { accountId: u.id }, orderBy: { createdAt: "asc" }, select: { name: true } });
        console.log(`${roleOf(u.roles).padEnd(9)} ${u.id}  ${first?.name ?? "(no character)"}`);
      }
      if (staff.length === 0) console.log("No staff accounts yet: npm run admin -- grant <character name> admin");
      return 0;
    }
    const [who, roleText] = command === "grant" ? [rest.slice(0, -1).join(" "), rest[rest.length - 1]] : [rest.join(" "), "player"];
    if (!who || !isStaffRole(roleText) || (command === "grant" && roleText === "player")) {
      console.error(USAGE);
      return 2;
    }
    // The operator stands above every role; what it changes reaches running servers by their poll.
    const moderation = new Moderation(
      db.prisma,
      { applyStanding: async () => {}, broadcast: async () => {}, kick: async () => false, hasSession: async () => false },
      logger,
    );
    const { message, target } = await moderation.setRole({ accountId: null, name: "operator", role: "admin", via: "cli" }, who, roleText);
    console.log(`${message} (account ${target.accountId})`);
    return 0;
  } catch (err) {
    if (err instanceof GameError) {
      console.error(`${err.code}: ${err.message}`);
      return 1;
    }
    throw err;
  } finally {
    await db.close();
  }
}

runCli(main);
