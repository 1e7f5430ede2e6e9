import { loadConfig } from "./config.js";
import { databaseOptionsFrom, openDatabase } from "./db/client.js";
import { heldByServer, runCli } from "./cli.js";
import { isStaffRole, roleOf } from "./game/staff.js";
import { GameError } from "./game/types.js";
import { createLogger } from "./logger.js";
import { Moderation } from "./staff/moderation.js";
import { drainChannel } from "./staff/drain.js";
import { DRAINING_KEY } from "../rooms/cluster/worldHosting.js";

/**
 * `npm run admin -- <command>`: the operator's staff commands, run against the configured
 * database (DATABASE_URL, or the embedded one of DATA_DIR):
 *   grant <character name | account id> <moderator | admin>
 *   revoke <character name | account id>        (back to player)
 *   list                                        (every staff account)
 *   processes                                   (the cluster's live processes; REDIS_URL)
 *   drain <process id>                          (move its worlds to the others, then it exits 0; REDIS_URL)
 * Each change writes its audit row (actor "operator", via "cli"). A running server on PostgreSQL
 * picks a change up within STAFF_POLL_MS; the embedded database takes one process at a time, so
 * with it the server must be stopped first (or use POST /api/admin/roles with an admin's token).
 */
const USAGE = `usage: npm run admin -- grant <character name | account id> <moderator | admin>
       npm run admin -- revoke <character name | account id>
       npm run admin -- list
       npm run admin -- processes
       npm run admin -- drain <process id>`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || !["grant", "revoke", "list", "processes", "drain"].includes(command)) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig(process.env);
  if (command === "processes" || command === "drain") return clusterCommand(config.redisUrl, command, rest);
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

/** How long `drain` waits for the drained process to be gone before it says so and exits 1. */
const DRAIN_WAIT_MS = 120_000;

/**
 * The cluster's processes, and a drain (docs/DEPLOYMENT.md "Upgrades no player notices"), through
 * the cluster's Redis: a process is live while it listens on its Colyseus channel `p:<id>`; a drain
 * is asked on the process's own channel, as POST /api/admin/drain asks another process. `drain`
 * waits until the process is gone (its worlds moved, its stop done), printing what moves.
 */
async function clusterCommand(redisUrl: string | undefined, command: "processes" | "drain", rest: string[]): Promise<number> {
  if (!redisUrl) {
    console.error("This needs the cluster's Redis (REDIS_URL). A server that runs alone has nothing to drain to: use POST /api/admin/restart.");
    return 1;
  }
  const { Redis } = await import("ioredis");
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const live = async () => new Set((await redis.pubsub("CHANNELS", "p:*")).map((c) => String(c).slice(2)));
    const hosted = async (pid: string) => {
      const worlds: number[] = [];
      for (const key of await redis.keys("world:*:host")) if ((await redis.hget(key, "holder")) === pid) worlds.push(Number(key.split(":")[1]));
      return worlds.sort((a, b) => a - b);
    };
    const draining = new Set(await redis.smembers(DRAINING_KEY));
    if (command === "processes") {
      const ids = [...(await live())].sort();
      for (const pid of ids) console.log(`${pid}  worlds ${(await hosted(pid)).join(",") || "-"}${draining.has(pid) ? "  (draining)" : ""}`);
      if (ids.length === 0) console.log("No live process on this Redis.");
      return 0;
    }
    const pid = rest[0];
    if (!pid || rest.length !== 1) {
      console.error(USAGE);
      return 2;
    }
    const processes = await live();
    if (!processes.has(pid)) {
      console.error(`UNKNOWN_PROCESS: no live process ${pid} (npm run admin -- processes lists them)`);
      return 1;
    }
    if (![...processes].some((p) => p !== pid && !draining.has(p))) {
      console.error("NO_OTHER_PROCESS: no other process would take the worlds: start the new one first, then drain this one");
      return 1;
    }
    console.log(`draining ${pid} (worlds ${(await hosted(pid)).join(",") || "-"})…`);
    await redis.publish(drainChannel(pid), JSON.stringify({ by: "operator" }));
    const deadline = Date.now() + DRAIN_WAIT_MS;
    while ((await live()).has(pid)) {
      if (Date.now() > deadline) {
        console.error(`${pid} is still running after ${DRAIN_WAIT_MS / 1000} s: see its log`);
        return 1;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    console.log(`${pid} drained and stopped; its worlds run on the others`);
    return 0;
  } finally {
    redis.disconnect();
  }
}

runCli(main);
