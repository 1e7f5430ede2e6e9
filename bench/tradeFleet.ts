/**
 * The trade benchmark's clients, in a process of their own (forked by bench/trade.ts), so that
 * what they cost (their sockets, parsing, pacing) is not charged to the server's event loop: the
 * server process runs the server alone, as it would in production.
 *
 * Over IPC: `{type: "connect", port, tokens, pace, repeatMs}` connects one /ws client per token
 * (pairs are consecutive tokens) and answers `{type: "ready", ids}`; `{type: "go", endAt}` (epoch
 * ms, see `clock`) runs every pair until then and answers `{type: "done", samples, trouble}`;
 * `{type: "close"}` closes the sockets and ends the process.
 */
import { BenchTrader, clock, newTrouble, note, type Pace, type Trouble } from "./tradeClient.js";

/** One trade as its clients saw it; every time is epoch ms (`clock`). */
export interface ClientSample {
  tradeId: string;
  /** The asked player, whose confirm-screen accept commits, and the asker. */
  committerId: string;
  askerId: string;
  startedAt: number;
  commitSentAt: number;
  /** When each side received tradeCompleted. */
  doneAsker: number;
  doneCommitter: number;
}

/** A Trouble over IPC (its maps as entry lists). */
export type TroubleJson = Omit<Trouble, "cancelled" | "errors"> & { cancelled: [string, number][]; errors: [string, number][] };

export type FleetRequest =
  { type: "connect"; port: number; tokens: string[]; pace: Pace; repeatMs: number } | { type: "go"; endAt: number } | { type: "close" };
export type FleetReply =
  { type: "ready"; ids: string[] } | { type: "done"; samples: ClientSample[]; trouble: TroubleJson } | { type: "failed"; message: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One trade, x asking y, y's confirm-screen accept committing it. */
async function tradeOnce(x: BenchTrader, y: BenchTrader): Promise<ClientSample> {
  let fail!: (err: Error) => void;
  const trouble = new Promise<never>((_, reject) => (fail = reject));
  trouble.catch(() => {});
  x.onTrouble = y.onTrouble = fail;
  const both = <T>(...ps: Promise<T>[]) => Promise.race([Promise.all(ps), trouble]);
  let tradeId: string | undefined;
  try {
    const incoming = y.waitFor("tradeIncoming", (d) => d.fromPlayerId === x.id);
    const startedAt = await x.send("tradeRequest", { targetPlayerId: y.id });
    tradeId = ((await both(incoming))[0].data as { tradeId: string }).tradeId;
    const ofThis = (d: any) => d.tradeId === tradeId;
    let waits = [x.waitFor("tradeStarted", ofThis), y.waitFor("tradeStarted", ofThis)];
    await y.send("tradeRequestRespond", { tradeId, accept: true });
    await both(...waits);

    // Both offer a coin; nobody accepts before both offers are in (a change resets acceptances).
    const bothOffered = (d: any) => d.tradeId === tradeId && d.myOffer.items.length > 0 && d.theirOffer.items.length > 0;
    waits = [x.waitFor("tradeUpdated", bothOffered), y.waitFor("tradeUpdated", bothOffered)];
    await Promise.all([
      x.send("tradeAddItem", { tradeId, inventorySlot: x.coinsSlot, quantity: 1 }),
      y.send("tradeAddItem", { tradeId, inventorySlot: y.coinsSlot, quantity: 1 }),
    ]);
    await both(...waits);

    waits = [x.waitFor("tradeConfirmScreen", ofThis), y.waitFor("tradeConfirmScreen", ofThis)];
    await Promise.all([x.send("tradeAccept", { tradeId }), y.send("tradeAccept", { tradeId })]);
    await both(...waits);
    // The offer screen's updates came before the confirm screen on the same socket: drop them.
    x.forget(tradeId, "tradeUpdated");
    y.forget(tradeId, "tradeUpdated");

    const xAccepted = x.waitFor("tradeUpdated", (d) => d.tradeId === tradeId && d.myOffer.accepted);
    await x.send("tradeAccept", { tradeId });
    await both(xAccepted);
    waits = [x.waitFor("tradeCompleted", ofThis), y.waitFor("tradeCompleted", ofThis)];
    const commitSentAt = await y.send("tradeAccept", { tradeId });
    const [doneX, doneY] = await both(...waits);
    return { tradeId, committerId: y.id, askerId: x.id, startedAt, commitSentAt, doneAsker: doneX.at, doneCommitter: doneY.at };
  } catch (err) {
    // Leave nothing open behind: the next trade starts clean.
    x.onTrouble = y.onTrouble = undefined;
    if (tradeId) await x.send("tradeCancel", { tradeId }).catch(() => {});
    await sleep(200);
    throw err;
  } finally {
    x.onTrouble = y.onTrouble = undefined;
    x.forget(tradeId);
    y.forget(tradeId);
  }
}

/** A pair trading back and forth until `endAt`, the asker alternating (waiting out the repeat-request limit when it is on). */
async function runPair(a: BenchTrader, b: BenchTrader, endAt: number, repeatMs: number, samples: ClientSample[], trouble: Trouble) {
  const lastAsked = [-Infinity, -Infinity];
  for (let n = 0; ; n++) {
    const dir = n % 2;
    const [x, y] = dir === 0 ? [a, b] : [b, a];
    if (repeatMs > 0) {
      const wait = lastAsked[dir] + repeatMs + 100 - clock();
      if (wait > 0) await sleep(wait);
    }
    if (clock() >= endAt) return;
    lastAsked[dir] = clock();
    try {
      samples.push(await tradeOnce(x, y));
    } catch (err) {
      const message = (err as Error).message;
      if (message.startsWith("stalled")) {
        trouble.stalls++;
        note(trouble, message);
      }
    }
  }
}

const reply = (m: FleetReply) => process.send?.(m);
const trouble = newTrouble();
let clients: BenchTrader[] = [];
let repeat = 0;

process.on("message", async (m: FleetRequest) => {
  try {
    if (m.type === "connect") {
      repeat = m.repeatMs;
      for (let i = 0; i < m.tokens.length; i += 8) {
        clients.push(...(await Promise.all(m.tokens.slice(i, i + 8).map((token) => BenchTrader.connect(m.port, token, trouble, m.pace)))));
      }
      reply({ type: "ready", ids: clients.map((c) => c.id) });
    } else if (m.type === "go") {
      const samples: ClientSample[] = [];
      const pairs = Math.floor(clients.length / 2);
      await Promise.all(Array.from({ length: pairs }, (_, p) => runPair(clients[2 * p], clients[2 * p + 1], m.endAt, repeat, samples, trouble)));
      reply({ type: "done", samples, trouble: { ...trouble, cancelled: [...trouble.cancelled], errors: [...trouble.errors] } });
    } else if (m.type === "close") {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
      clients = [];
      process.exit(0);
    }
  } catch (err) {
    reply({ type: "failed", message: (err as Error).message });
  }
});
process.on("disconnect", () => process.exit(0));
