/**
 * The trade benchmark's client (bench/trade.ts): a /ws player that trades, parsing only the frames
 * it acts on, counting every cancel and error, and pacing itself under the /ws frame limit.
 */
import { performance } from "node:perf_hooks";
import WebSocket from "ws";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Epoch milliseconds with performance.now()'s resolution: the same clock in the clients' process and the server's. */
export const clock = () => performance.timeOrigin + performance.now();

/** How a client paces itself: frames per second it sends at most, seconds a step may take. */
export interface Pace {
  sendRate: number;
  stepTimeoutS: number;
}

export interface Trouble {
  cancelled: Map<string, number>;
  errors: Map<string, number>;
  stalls: number;
  first: string[];
  pacedWaits: number;
}
export const newTrouble = (): Trouble => ({ cancelled: new Map(), errors: new Map(), stalls: 0, first: [], pacedWaits: 0 });
export const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
export const note = (t: Trouble, what: string) => void (t.first.length < 5 && t.first.push(what));

export interface Frame {
  type: string;
  data: any;
  /** When the frame's message event ran (`clock`). */
  at: number;
}

interface Waiter {
  type: string;
  pred: (d: any) => boolean;
  resolve: (f: Frame) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

/** Only these frames are parsed; world updates and the rest are skipped unread. */
const wanted = (type: string) => type.startsWith("trade") || type === "player:sync" || type === "authenticated" || type === "error";

/** A /ws client that trades: frames it waits for, frames that came early, its coins, its pace. */
export class BenchTrader {
  id = "";
  coinsSlot = -1;
  /** Frames nobody waited for yet (dropped per trade once it is over). */
  private inbox: Frame[] = [];
  private waiters: Waiter[] = [];
  private sentAt: number[] = [];
  /** Called on a tradeCancelled, tradeError or error frame: the pair's current trade fails. */
  onTrouble: ((err: Error) => void) | undefined;

  private constructor(
    readonly ws: WebSocket,
    private readonly trouble: Trouble,
    private readonly pace: Pace,
  ) {
    ws.on("message", (raw) => this.receive(String(raw)));
    ws.on("close", () => this.onTrouble?.(new Error("socket closed")));
  }

  static async connect(port: number, token: string, trouble: Trouble, pace: Pace): Promise<BenchTrader> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${encodeURIComponent(token)}`);
    const t = new BenchTrader(ws, trouble, pace);
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    t.id = (await t.waitFor("authenticated")).data.playerId;
    await t.waitFor("player:sync");
    if (t.coinsSlot < 0) throw new Error(`${t.id} has no coins`);
    return t;
  }

  private receive(text: string) {
    const at = clock();
    const type = /^\{"type":"([^"]+)"/.exec(text)?.[1] ?? JSON.parse(text).type;
    if (!wanted(type)) return;
    const { data } = JSON.parse(text);
    if (type === "player:sync") this.coinsSlot = data.inventory.find((s: { itemId: string }) => s.itemId === "coins")?.slot ?? -1;
    if (type === "tradeCancelled" || type === "tradeError" || type === "error") {
      const what = type === "tradeCancelled" ? data.reason : data.code;
      bump(type === "tradeCancelled" ? this.trouble.cancelled : this.trouble.errors, `${type}:${what}`);
      note(this.trouble, `${type} ${JSON.stringify(data)}`);
      this.onTrouble?.(new Error(`${type} ${what}: ${data.message}`));
      return;
    }
    const frame = { type, data, at };
    const i = this.waiters.findIndex((w) => w.type === type && w.pred(data));
    if (i < 0) {
      this.inbox.push(frame);
      if (this.inbox.length > 64) this.inbox.shift();
      return;
    }
    const [w] = this.waiters.splice(i, 1);
    clearTimeout(w.timer);
    w.resolve(frame);
  }

  /** The first frame of `type` matching `pred`, already received or still to come. */
  waitFor(type: string, pred: (d: any) => boolean = () => true): Promise<Frame> {
    const i = this.inbox.findIndex((f) => f.type === type && pred(f.data));
    if (i >= 0) return Promise.resolve(this.inbox.splice(i, 1)[0]);
    const p = new Promise<Frame>((resolve, reject) => {
      const w: Waiter = { type, pred, resolve, reject, timer: undefined as unknown as NodeJS.Timeout };
      w.timer = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(new Error(`stalled: no ${type} within ${this.pace.stepTimeoutS} s`));
      }, this.pace.stepTimeoutS * 1000);
      this.waiters.push(w);
    });
    p.catch(() => {});
    return p;
  }

  /** Forget a trade: its unread frames (and any waiter left behind by a failed step). */
  forget(tradeId: string | undefined, type?: string) {
    this.inbox = this.inbox.filter((f) => !(f.data?.tradeId === tradeId && (type === undefined || f.type === type)));
    if (type !== undefined) return;
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.reject(new Error("abandoned"));
    }
  }

  /** Send a frame, held back while the last `sendRate` frames went out within a second; resolves with when it was written (`clock`). */
  async send(type: string, data: unknown): Promise<number> {
    while (this.sentAt.length >= this.pace.sendRate && performance.now() - this.sentAt[0] < 1000) {
      this.trouble.pacedWaits++;
      await sleep(1001 - (performance.now() - this.sentAt[0]));
    }
    this.sentAt.push(performance.now());
    if (this.sentAt.length > this.pace.sendRate) this.sentAt.shift();
    this.ws.send(JSON.stringify({ type, data }));
    return clock();
  }

  async close() {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    this.onTrouble = undefined;
    const closed = new Promise((resolve) => this.ws.once("close", resolve));
    this.ws.close();
    await closed;
  }
}
