import type { CallToolResult, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { RoomEnvelope } from "../protocol/index.js";
import type { Heard, McpPlayer } from "./player.js";
import type { McpSession } from "./session.js";
import { toolError, toolResult, ToolError } from "./results.js";
import { TICK_MS } from "../protocol/vocabulary.js";
/** Most ticks a tool waits for an outcome when the call does not say (about 30 s). */
export const DEFAULT_MAX_TICKS = 50;
/**
 * Most ticks any tool waits (54 s): under the 60 s an MCP client waits for an answer by default
 * (the SDK's and the Inspector's request timeout), so a long call is answered, never timed out.
 * A fight waits this long unless the call says less.
 */
export const MAX_TICKS = 90;

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What an answer whose outcome has not come says about going on. */
const CONTINUES =
  "The action goes on in the world: call wait (with `for` naming the outcome's event) or this tool again to keep waiting; the events that come meanwhile are in the next answer.";

/** What a wait decides at each message: done (the outcome came), failed (a refusal), or not yet. */
export type Verdict = "done" | { fail: { code: string; message: string } } | undefined;

export interface Watch {
  /** Judge each message that came since the order (the order's immediate answers included). */
  until?: (m: Heard, p: McpPlayer) => Verdict;
  /** Judge the player's state after each tick (after its `player:sync`, if any). */
  settled?: (p: McpPlayer) => boolean;
  /** Most ticks to wait; past them the call returns with `done: false` (the action may go on). */
  maxTicks?: number;
  /** A progress message after each tick, for a client that sent a progressToken. */
  progress?: (p: McpPlayer, ticks: number) => { progress: number; total?: number; message: string } | undefined;
  /**
   * The outcome comes before the tick's state (a dialogue's next node is told at once, what it gave
   * or took comes with the tick's `player:sync`): once it came, wait for that state too, so the
   * answer's `gained` and the journal hold it.
   */
  stateAfter?: boolean;
  /** What else the result holds, from the player once the wait is over. */
  report?: (p: McpPlayer, heard: Heard[]) => Record<string, unknown>;
}

/** The messages that are refusals, on each channel. */
const REFUSALS: ReadonlySet<string> = new Set(["error", "tradeError", "duel:error"]);

/** Counts of each item in the pack, and xp of each skill: what a call changed is their difference. */
function holdings(p: McpPlayer) {
  const items = new Map<string, number>();
  for (const s of p.sight.self?.inventory ?? []) items.set(s.itemId, (items.get(s.itemId) ?? 0) + s.quantity);
  const xp = new Map<string, number>();
  for (const [k, v] of Object.entries(p.sight.self?.skills ?? {})) xp.set(k, v.xp);
  return { items, xp };
}

function changes(before: ReturnType<typeof holdings>, after: ReturnType<typeof holdings>) {
  const items: Record<string, number> = {};
  for (const id of new Set([...before.items.keys(), ...after.items.keys()])) {
    const d = (after.items.get(id) ?? 0) - (before.items.get(id) ?? 0);
    if (d !== 0) items[id] = d;
  }
  const xp: Record<string, number> = {};
  for (const [k, v] of after.xp) {
    const d = v - (before.xp.get(k) ?? 0);
    if (d > 0) xp[k] = Math.round(d * 10) / 10;
  }
  return { items, xp };
}

/**
 * Run one order in the world and wait for what it leads to: the order goes to the room's handlers
 * as any client's message (a goal the runtime was playing gives way to it); a refusal on its
 * channel is the tool's error, with its code. Then, as `watch` says, the call waits for the
 * outcome (or a refusal later, or its ticks' end), reporting progress each tick, and answers with
 * what happened: the items gained and lost, the xp, where the player stands (the events and the
 * vitals every answer carries are added by the tool's wrapper, src/mcp/toolKit.ts).
 */
export async function perform(s: McpSession, extra: Extra, order: RoomEnvelope | null, watch: Watch = {}): Promise<CallToolResult> {
  try {
    s.check();
  } catch (err) {
    if (err instanceof ToolError) return toolError(err.code, err.message);
    throw err;
  }
  const p = s.player;
  const before = holdings(p);
  const heard: Heard[] = [];
  let verdict: Verdict;
  let wake: (() => void) | undefined;
  const judge = (m: Heard) => {
    if (verdict) return;
    if (REFUSALS.has(m.type)) verdict = { fail: { code: m.data.code, message: m.data.message } };
    else verdict = watch.until?.(m, p);
  };
  /** A tick's state (an update or a private sync) came since the order. */
  let sawState = false;
  /** Wait for the listener's wake (when `wanted` holds then) or `ms`, whichever comes first. */
  const woken = (ms: number, wanted: () => boolean = () => true) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        if (!wanted()) return;
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => (wake = undefined));
  const stop = p.listen((m) => {
    if (m.type !== "world:update" && m.type !== "player:sync") heard.push(m);
    else sawState = true;
    judge(m);
    if (sawState || verdict) wake?.();
  });
  try {
    if (order) {
      if (p.mind.goal) p.mind.goal = null;
      p.sendToRoom(order.type, order.data);
    }
    const maxTicks = watch.maxTicks ?? 0;
    const token = extra._meta?.progressToken;
    const start = Date.now();
    const deadline = start + maxTicks * TICK_MS + TICK_MS / 2;
    let told = 0;
    const firstTick = p.sight.tick;
    while (!verdict && maxTicks > 0 && !s.ended && !extra.signal.aborted) {
      // The ticks the player was told of (its updates) count first; the clock stands in when nothing in view changes.
      if (p.sight.tick - firstTick >= maxTicks) break;
      if (watch.settled && sawState && watch.settled(p)) {
        verdict = "done";
        break;
      }
      const left = deadline - Date.now();
      if (left <= 0) break;
      // Until the player's next message (a tick's update or sync, an outcome), or a tick at most.
      sawState = false;
      await woken(Math.min(left, TICK_MS));
      const ticks = Math.floor((Date.now() - start) / TICK_MS);
      if (token !== undefined && watch.progress && ticks > told) {
        told = ticks;
        const step = watch.progress(p, ticks);
        if (step) await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, ...step } }).catch(() => {});
      }
    }
    if (verdict === "done" && watch.stateAfter && !s.ended && !extra.signal.aborted) {
      // The tick's update and sync are sent together: woken by the first, the sync is in by then.
      sawState = false;
      await woken(TICK_MS + TICK_MS / 2, () => sawState);
    }
    if (verdict && typeof verdict === "object") {
      const { code, message } = verdict.fail;
      return toolError(code, message);
    }
    if (s.ended && !verdict) return toolError(s.ended.code, s.ended.message);
    const changed = changes(before, holdings(p));
    const self = p.sight.self;
    return toolResult({
      done: verdict === "done" || maxTicks === 0,
      ...(watch.report ? watch.report(p, heard) : {}),
      gained: changed.items,
      xp: changed.xp,
      position: self ? { x: self.tile.x, z: self.tile.z } : null,
      action: self?.action ?? null,
      ...(verdict !== "done" && maxTicks > 0 ? { continues: CONTINUES } : {}),
    });
  } finally {
    stop();
  }
}
