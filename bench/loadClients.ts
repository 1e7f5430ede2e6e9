/**
 * Child process of bench/ws.ts: the load side. It holds N real clients of one kind at a time
 * (plain /ws or @colyseus/sdk, WebSockets over loopback), walks each one step every second, and
 * measures over a window what they received and how long their moves took to show. It runs apart
 * from the server process so the clients' decoding does not run on the server's event loop.
 * Driven by the parent over IPC, each request `{id, type, ...}` answered by `{id, ok, ...}`:
 *   setup {url, port, map, seed}         connect {kind, n, concurrency, spreadMaxDistance}
 *   spread {timeoutMs, maxDistance}      walk {}        mark {}       report {drainMs} (stops the walking)
 *   disconnect {}                        exit {}
 */
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import type { UpdatesForm } from "../src/protocol/index.js";
import { seededRng } from "../src/game/random.js";
import { LoadClient, Meter, SdkLoadClient, WsLoadClient, type ClientKind } from "./loadClient.js";
import type { RawWindow } from "./loadWindows.js";
import { TileGrid, type MapInfo } from "./tiles.js";

/** The moves are spread over the second: each client has one of SLOTS slots, SLOT_MS apart. */
const SLOTS = 50;
const SLOT_MS = 1000 / SLOTS;

let url = "";
let port = 0;
let grid: TileGrid;
let rnd: () => number = Math.random;
const tokens: string[] = [];
let clients: LoadClient[] = [];
const meter = new Meter();
let walkTimer: NodeJS.Timeout | undefined;
/** The form of world:update the /ws clients ask for. */
let wsUpdates: UpdatesForm = "whole";

// Never outlive the benchmark.
setTimeout(() => process.exit(3), 10 * 60_000).unref();
process.on("disconnect", () => process.exit(0));
// The SDK logs to the console in a few situations (unexpected closes, a patch its decoder cannot
// place): counted, and reported with each disconnect, to keep the report readable.
const quiet = new Map<string, number>();
console.warn =
  console.info =
  console.error =
    (...args: unknown[]) => {
      const key = String(args[0] ?? "").slice(0, 120);
      quiet.set(key, (quiet.get(key) ?? 0) + 1);
    };

async function guestToken(): Promise<string> {
  const res = await fetch(`${url}/api/auth/guest`, { method: "POST" });
  if (res.status !== 201) throw new Error(`POST /api/auth/guest: ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}

/** Run `job(i)` for i in [0, n), at most `concurrency` at a time. */
async function pool(n: number, concurrency: number, job: (i: number) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < n) await job(next++);
  };
  await Promise.all(Array.from({ length: Math.min(n, concurrency) }, worker));
}

/** N clients of one kind; client i always uses guest token i, so both kinds play the same characters. */
async function connect(kind: ClientKind, n: number, concurrency: number, spreadMaxDistance: number) {
  const t0 = performance.now();
  const firstNew = tokens.length;
  const missing = n - tokens.length;
  if (missing > 0) {
    const fresh: string[] = new Array(missing);
    await pool(missing, concurrency, async (i) => {
      fresh[i] = await guestToken();
    });
    tokens.push(...fresh);
  }
  const tokensS = (performance.now() - t0) / 1000;
  const made: Array<LoadClient | undefined> = new Array(n);
  const failures: string[] = [];
  await pool(n, concurrency, async (i) => {
    const c = kind === "ws" ? new WsLoadClient(i, meter, port, tokens[i], wsUpdates) : new SdkLoadClient(i, meter, url, tokens[i]);
    try {
      await c.connect();
      made[i] = c;
      // A new character starts spreading out at once, while the others are still joining.
      c.fresh = i >= firstNew;
      if (spreadMaxDistance > 0 && c.fresh && atSpawn(c)) aim(c, 1, spreadMaxDistance);
    } catch (err) {
      failures.push((err as Error).message);
      await c.close().catch(() => {});
    }
  });
  clients = made.filter((c): c is LoadClient => c !== undefined);
  return { connected: clients.length, failed: failures.length, firstFailure: failures[0], tokensSeconds: tokensS, seconds: (performance.now() - t0) / 1000 };
}

const atSpawn = (c: LoadClient) => c.pos !== undefined && c.pos.x === grid.info.spawn.x && c.pos.z === grid.info.spawn.z;
let spreading = 0;

/** Run to a random walkable tile of the world (a new character, off the spawn tile). */
function aim(c: LoadClient, tries: number, maxDistance: number) {
  const to = grid.anywhere(c.pos!, rnd, maxDistance);
  if (!to) return (c.scatter = undefined);
  if (tries === 1) spreading++;
  c.scatter = { ...to, tries, refused: false };
  c.move(to.x, to.z, true);
}

/**
 * New characters (guest tokens made for this phase) stand on the spawn tile: each runs to a random
 * tile of the world (most started as soon as they joined); wait, bounded, until they are all there.
 * A known character on the spawn tile (it died and respawned) stays where the game put it.
 */
async function spread(timeoutMs: number, maxDistance: number) {
  const t0 = performance.now();
  for (const c of clients) if (c.fresh && !c.scatter && atSpawn(c)) aim(c, 1, maxDistance);
  let left = 0;
  while (performance.now() - t0 < timeoutMs) {
    left = 0;
    for (const c of clients) {
      if (!c.scatter || c.closed) continue;
      if (c.scatter.refused) {
        if (c.scatter.tries < 3) aim(c, c.scatter.tries + 1, maxDistance);
        else c.scatter = undefined;
      }
      if (c.scatter) left++;
    }
    if (left === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  for (const c of clients) c.scatter = undefined;
  const started = spreading;
  spreading = 0;
  return { started, stragglers: left, seconds: (performance.now() - t0) / 1000 };
}

/**
 * Every client sends one move a second, to a walkable tile 1–2 tiles away, unless its previous move
 * has not shown yet (then it waits for its next second); slots spread the moves over the second.
 */
function walk() {
  stopWalking();
  const buckets: LoadClient[][] = Array.from({ length: SLOTS }, () => []);
  clients.forEach((c, i) => buckets[(i * 37) % SLOTS].push(c));
  const t0 = performance.now();
  let done = -1;
  walkTimer = setInterval(() => {
    const due = Math.floor((performance.now() - t0) / SLOT_MS);
    // A stalled loop does not make anyone move twice in a burst.
    if (due - done > SLOTS) done = due - SLOTS;
    for (let s = done + 1; s <= due; s++) {
      for (const c of buckets[s % SLOTS]) {
        if (c.closed || !c.pos || c.scatter || !c.readyToMove(performance.now())) continue;
        const to = grid.step(c.pos, rnd);
        if (to) c.move(to.x, to.z);
      }
    }
    done = due;
  }, 5);
}

function stopWalking() {
  if (walkTimer) clearInterval(walkTimer);
  walkTimer = undefined;
}

const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();
let window: { at: number; cpu: NodeJS.CpuUsage; elu: ReturnType<typeof performance.eventLoopUtilization> } | undefined;

function mark() {
  for (const c of clients) {
    c.frames = 0;
    c.bytes = 0;
  }
  meter.reset();
  meter.measuring = true;
  loopDelay.reset();
  window = { at: performance.now(), cpu: process.cpuUsage(), elu: performance.eventLoopUtilization() };
  return {};
}

/**
 * The window's raw figures (the parent merges those of every load process), and the walking stops;
 * moves sent in the window get up to `drainMs` more to show before they count as unconfirmed.
 */
async function report(drainMs: number): Promise<RawWindow> {
  if (!window) throw new Error("report before mark");
  const seconds = (performance.now() - window.at) / 1000;
  const cpu = process.cpuUsage(window.cpu);
  const elu = performance.eventLoopUtilization(window.elu).utilization;
  const raw = {
    clients: clients.length,
    seconds,
    frames: clients.reduce((a, c) => a + c.frames, 0),
    bytes: clients.reduce((a, c) => a + c.bytes, 0),
    perClientFrames: clients.map((c) => c.frames),
    kinds: Object.fromEntries(meter.kinds),
    sent: meter.sent,
    held: meter.held,
    timedOut: meter.timedOut,
    refused: Object.fromEntries(meter.refused),
    closedDuringWindow: clients.filter((c) => c.closed).length,
    cpuMs: (cpu.user + cpu.system) / 1000,
    elu,
    loopDelayMs: { p50: loopDelay.percentile(50) / 1e6, p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
  };
  meter.measuring = false;
  // No more moves: those sent in the window get to finish (a new move would not cut them short anyway).
  stopWalking();
  const waiting = () => clients.some((c) => c.pending?.measured && !c.closed);
  const drainStart = performance.now();
  while (waiting() && performance.now() - drainStart < drainMs) await new Promise((resolve) => setTimeout(resolve, 50));
  return { ...raw, latencies: meter.latencies, unconfirmed: clients.filter((c) => c.pending?.measured && !c.closed).length };
}

async function disconnect() {
  stopWalking();
  meter.measuring = false;
  const t0 = performance.now();
  const all = clients;
  clients = [];
  await pool(all.length, 64, (i) => all[i].close());
  const consoleLines = Object.fromEntries(quiet);
  quiet.clear();
  return { seconds: (performance.now() - t0) / 1000, consoleLines };
}

process.on("message", async (m: any) => {
  const reply = (body: object) => process.send?.({ id: m.id, ok: true, ...body });
  try {
    switch (m.type) {
      case "setup": {
        url = m.url;
        port = m.port;
        grid = new TileGrid(m.map as MapInfo);
        rnd = seededRng(m.seed);
        wsUpdates = m.wsUpdates;
        return reply({});
      }
      case "connect":
        return reply(await connect(m.kind, m.n, m.concurrency, m.spreadMaxDistance));
      case "spread":
        return reply(await spread(m.timeoutMs, m.maxDistance));
      case "walk":
        walk();
        return reply({});
      case "mark":
        return reply(mark());
      case "report":
        return reply(await report(m.drainMs));
      case "disconnect":
        return reply(await disconnect());
      case "exit":
        process.exit(0);
    }
    throw new Error(`unknown request ${m.type}`);
  } catch (err) {
    process.send?.({ id: m.id, ok: false, error: String((err as Error)?.stack ?? err) });
  }
});

process.send?.({ id: 0, ok: true, ready: true });
