/**
 * A rolling upgrade that no player should notice (issue 52; docs/DEPLOYMENT.md "Upgrades no player
 * notices"): a cluster of `--processes` real `npm start` processes (3) on one real Redis and one
 * real PostgreSQL, serving `--worlds` worlds (3), with `--players` players (200) in them: /ws
 * walkers, /ws fighters (they attack the npcs they see), /ws traders (pairs trading a coin back and
 * forth) and SDK walkers. Then, one process at a time, a new process starts and the old one is
 * drained with `npm run admin -- drain <process id>`: its worlds move with their players to the
 * others, and it exits. Each player resumes (/ws) or joins again (SDK) by itself, at the process
 * `world:moving` names as `next`; `--mcp` MCP clients (20, on top of the players), walking through
 * one front address over every live process (test/helpers/front.ts, as nginx would), do nothing: their
 * sessions follow their worlds (docs/MCP.md "In a cluster").
 *
 * Printed: for every move of every player, the stall (from `world:moving` to the first world frame
 * on the new host) as p50, p90, p99 and max, by kind of player; the moves whose pack differed
 * after the move from the last `player:sync` before it (an acknowledged change lost, or one made);
 * each drain's time and the drained process's exit code; the trades completed; the characters'
 * item totals in the database before the upgrade and after everyone left, and the ledger's
 * conservation check (npm run audit's). The target: stall p99 ≤ 1 s, nothing lost, nothing made.
 *
 * The load generator runs in this process, on the same machine as the servers: compare figures
 * from one run only.
 *
 * Usage: npm run bench:upgrade [-- --processes 3 --worlds 3 --players 200 --mcp 20 --play 8]
 */
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { freePort } from "../src/db/localPostgres.js";
import { openDatabase } from "../src/db/client.js";
import { conservation } from "../src/db/ledgerRepo.js";
import { silentLogger } from "../src/logger.js";
import { seededRng } from "../src/game/random.js";
import { runCli } from "../test/helpers/cli.js";
import { createTestDatabase, stopTestPostgres } from "../test/helpers/postgres.js";
import { startTestRedis } from "../test/helpers/redis.js";
import { killServerProcesses, startServerProcess, type ServerProcess } from "../test/helpers/serverProcess.js";
import { benchArgs } from "./args.js";
import { fmt, quantile, table } from "./stats.js";
import { startFront } from "../test/helpers/front.js";
import { McpUpgradePlayer, SdkUpgradePlayer, WsUpgradePlayer, type UpgradeRole } from "./upgradeClients.js";

const a = benchArgs("npm run bench:upgrade", { processes: "3", worlds: "3", players: "200", mcp: "20", play: "8" });
const o = { processes: Number(a.processes), worlds: Number(a.worlds), players: Number(a.players), mcp: Number(a.mcp), playS: Number(a.play) };
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const redis = await startTestRedis();
const db = await createTestDatabase();
const secret = randomBytes(32).toString("hex");
const env = {
  REDIS_URL: redis.url,
  DATABASE_URL: db.url,
  WORLDS: String(o.worlds),
  JWT_SECRET: secret,
  SAVE_INTERVAL: "60",
  LOG_LEVEL: process.env.UPGRADE_LOG_LEVEL ?? "warn",
  WS_MAX_CONNECTIONS_PER_ADDRESS: "1000000",
};
const startProcess = async () => {
  const port = await freePort();
  return startServerProcess({ ...env, PUBLIC_ADDRESS: `127.0.0.1:${port}` }, { port, timeoutMs: 60_000 });
};
const status = async (p: ServerProcess) => (await (await fetch(`${p.url}/status`)).json()) as { processId: string; worlds: number[] };

/** `npm run admin -- <args>` against the cluster's Redis: its exit code and output. */
const adminCli = (args: string[]) => runCli("src/adminCli.ts", args, { REDIS_URL: redis.url, DATABASE_URL: db.url, LOG_LEVEL: "warn" });

/** Every character's items in the database (inventory, equipment, bank), item by item. */
async function totals(): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const rows = await client.query<{ itemId: string; n: string }>(
      `SELECT "itemId", SUM("quantity")::bigint AS n FROM (
         SELECT "itemId", "quantity" FROM "inventory" UNION ALL SELECT "itemId", "quantity" FROM "equipment"
         UNION ALL SELECT "itemId", "quantity" FROM "bank") h GROUP BY "itemId" ORDER BY 1`,
    );
    return Object.fromEntries(rows.rows.map((r) => [r.itemId, Number(r.n)]));
  } finally {
    await client.end();
  }
}

type Player = WsUpgradePlayer | SdkUpgradePlayer | McpUpgradePlayer;
const players: Player[] = [];
const procs: ServerProcess[] = [];
// The cluster's one address for the MCP clients: every live process in turn.
const front = await startFront(() => procs.map((p) => p.port));
try {
  console.log(`bench:upgrade: ${o.processes} processes, ${o.worlds} worlds, ${o.players} players and ${o.mcp} MCP clients; node ${process.version}`);
  for (let i = 0; i < o.processes; i++) procs.push(await startProcess());
  for (const deadline = Date.now() + 60_000; ;) {
    const shares = (await Promise.all(procs.map(status))).map((s) => s.worlds.length);
    const listed = ((await (await fetch(`${procs[0]!.url}/api/v1/worlds`)).json()) as { worlds: Array<{ status: string }> }).worlds;
    const even = shares.reduce((x, y) => x + y, 0) === o.worlds && Math.max(...shares) - Math.min(...shares) <= 1;
    if (even && listed.every((w) => w.status === "online")) break;
    if (Date.now() > deadline) throw new Error(`the worlds were not shared out: ${JSON.stringify(shares)}`);
    await pause(250);
  }

  // The players: 40 % /ws walkers, 20 % /ws fighters, 20 % /ws traders in pairs, 20 % SDK walkers.
  const random = seededRng(20_261_203);
  const roleOf = (i: number): ["ws" | "sdk", UpgradeRole] => {
    const k = i % 10;
    return k < 4 ? ["ws", "walker"] : k < 6 ? ["ws", "fighter"] : k < 8 ? ["ws", "trader"] : ["sdk", "walker"];
  };
  for (let i = 0; i < o.players; i += 20) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(20, o.players - i) }, async (_, k) => {
        const n = i + k;
        const via = procs[n % procs.length]!;
        const { token } = (await (await fetch(`${via.url}/api/auth/guest`, { method: "POST" })).json()) as { token: string };
        const [kind, role] = roleOf(n);
        // A trading pair shares a world: the pair's two players are 1 apart in the order (k 6 and 7).
        const world = (Math.floor(n / 10) % o.worlds) + 1;
        if (kind === "sdk") {
          const p = new SdkUpgradePlayer(role, token, world, random);
          await p.join(via.url);
          return p;
        }
        const p = new WsUpgradePlayer(role, token, world, random);
        await p.join(via.port);
        return p;
      }),
    );
    players.push(...batch);
  }
  const pairs = players.length;
  for (let i = 0; i < o.mcp; i++) {
    const { token } = (await (await fetch(`${front.url}/api/auth/guest`, { method: "POST" })).json()) as { token: string };
    const p = new McpUpgradePlayer(token, (i % o.worlds) + 1, random);
    await p.join(front.url);
    players.push(p);
  }
  for (let i = 0; i + 1 < pairs; i++) {
    const [x, y] = [players[i], players[i + 1]];
    if (x instanceof WsUpgradePlayer && y instanceof WsUpgradePlayer && x.role === "trader" && y.role === "trader" && i % 10 === 6) {
      x.partner = y;
      y.partner = x;
      x.leads = true;
    }
  }
  await pause(o.playS * 1000);
  const before = await totals();

  // The rolling upgrade: a new process, then the old one drained; each in turn.
  const drains: string[][] = [];
  const original = [...procs];
  for (const old of original) {
    const fresh = await startProcess();
    procs.push(fresh);
    const { processId, worlds } = await status(old);
    const movesBefore = players.reduce((n, p) => n + p.moves.length, 0);
    const t0 = performance.now();
    const cli = await adminCli(["drain", processId]);
    const drainMs = performance.now() - t0;
    const exit = await old.exited;
    procs.splice(procs.indexOf(old), 1);
    // Back in play: everyone who was moved has come back (or said why not), then some play.
    for (const deadline = Date.now() + 60_000; players.some((p) => p.away && p.problems.length === 0) && Date.now() < deadline;) await pause(100);
    const moved = players.reduce((n, p) => n + p.moves.length, 0) - movesBefore;
    drains.push([processId, worlds.join(","), String(moved), fmt(drainMs, 0), String(cli.code), String(exit.code)]);
    if (cli.code !== 0) console.log(cli.output);
    await pause(o.playS * 1000);
  }

  if (process.env.UPGRADE_LOG_LEVEL)
    for (const p of [...original, ...procs])
      console.log(
        p
          .output()
          .split("\n")
          .filter((l) => /moved out|world opened|drain/.test(l))
          .join("\n"),
      );
  const told = players.reduce((n, p) => n + p.movingSeen, 0);
  const away = players.filter((p) => p.away).length;
  const traded = players.reduce((n, p) => n + p.tradesDone, 0) / 2;
  await Promise.all(players.map((p) => p.stop()));
  // Every leave saved: wait until the worlds hold nobody.
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await pause(250)) {
    const listed = ((await (await fetch(`${procs[0]!.url}/api/v1/worlds`)).json()) as { worlds: Array<{ players: number }> }).worlds;
    if (listed.every((w) => w.players === 0)) break;
  }
  const after = await totals();

  console.log("\nDrains (npm run admin -- drain <process id>), one process at a time, a new one started first:");
  console.log(table(["process", "worlds", "players moved", "drain ms", "cli exit", "process exit"], drains));

  const rows: string[][] = [];
  const kinds: Array<[string, (p: Player) => boolean]> = [
    ["every player", (p) => !(p instanceof McpUpgradePlayer)],
    ["/ws walkers", (p) => p instanceof WsUpgradePlayer && p.role === "walker"],
    ["/ws fighters", (p) => p.role === "fighter"],
    ["/ws traders", (p) => p.role === "trader"],
    ["SDK walkers", (p) => p instanceof SdkUpgradePlayer],
    ["MCP walkers", (p) => p instanceof McpUpgradePlayer],
  ];
  for (const [label, pick] of kinds) {
    const stalls = players.filter(pick).flatMap((p) => p.moves.map((m) => m.stallMs));
    rows.push([
      label,
      String(stalls.length),
      fmt(Math.min(...stalls), 0),
      fmt(quantile(stalls, 0.5), 0),
      fmt(quantile(stalls, 0.9), 0),
      fmt(quantile(stalls, 0.99), 0),
      fmt(Math.max(...stalls), 0),
    ]);
  }
  const held = players.flatMap((p) => (p instanceof McpUpgradePlayer ? p.heldMs : []));
  rows.push([
    "MCP, held call",
    String(held.length),
    ...[Math.min(...held), quantile(held, 0.5), quantile(held, 0.9), quantile(held, 0.99), Math.max(...held)].map((x) => fmt(x, 0)),
  ]);
  console.log(
    "\nEach player's stall at each move (ms, from world:moving to the first world frame on the new host; MCP: from the WORLD_MOVED answer or failed call to the first answer on the new host, and from the start of the call the move held up):",
  );
  console.log(table(["players", "moves", "min", "p50", "p90", "p99", "max"], rows));

  const changed = players.flatMap((p) => p.moves.filter((m) => !m.kept).map((m) => `${p.role} ${p.id}: ${m.difference}`));
  const problems = players.flatMap((p) => p.problems.map((x) => `${p.role} ${p.id}: ${x}`));
  console.log(`\nmoves whose pack differed after the move: ${changed.length}${changed.length ? `\n  ${changed.slice(0, 10).join("\n  ")}` : ""}`);
  console.log(`players' problems (refusals, not back): ${problems.length}${problems.length ? `\n  ${problems.slice(0, 10).join("\n  ")}` : ""}`);
  console.log(`world:moving received: ${told}; moves completed: ${players.reduce((n, p) => n + p.moves.length, 0)}; players still away at the end: ${away}`);
  console.log(`trades completed during the run: ${traded}`);
  const same = JSON.stringify(before) === JSON.stringify(after);
  console.log(
    `characters' item totals before the upgrade and after everyone left: ${same ? "equal" : `DIFFER\n  before ${JSON.stringify(before)}\n  after  ${JSON.stringify(after)}`}`,
  );
  const database = await openDatabase({ databaseUrl: db.url, logger: silentLogger, migrate: false });
  try {
    const c = await conservation(database.sql);
    console.log(
      `conservation (npm run audit): ${c.characters} characters, ${c.holdings.length} holdings off their ledger, ${c.transfers.length} transfers unbalanced`,
    );
  } finally {
    await database.close();
  }
} finally {
  await Promise.all(players.map((p) => p.stop().catch(() => {})));
  await killServerProcesses();
  await front.close();
  await db.drop().catch(() => {});
  await redis.stop();
  await stopTestPostgres();
}
