import { saveSlice } from "../src/db/worldSaver.js";
import { tickStores } from "../src/game/world/stores.js";
import { tickGroundItems, tickNpcs, tickPlayers, tickResources } from "../src/game/world/tick.js";
import type { World } from "../src/game/world/World.js";
import type { WorldUpdate } from "../src/protocol/index.js";
import type { RoomCharacterLocks } from "./characterLocks.js";
import type { TickPhases, WorldTickPhase } from "./tickPhases.js";
import { updateInForm } from "./interest/updateForms.js";
import type { OpenDesk } from "../src/worldDesks.js";
import { dispatchEvents, type EventContext } from "./worldEvents.js";
import type { Session } from "./worldSessions.js";
import type { StoreDesk } from "./storeDesk.js";
import type { WorldInterest } from "./interest/worldInterest.js";
import type { TradeDesk } from "./tradeDesk.js";

/** How often the character locks are refreshed (every ~5 s; they expire after LOCK_TTL_S). */
const LOCK_REFRESH_TICKS = 8;

/**
 * The ticks the periodic save is cut over: its picture of every changed character is taken in the
 * tick that starts it (28 ms of one tick for 2,000 characters in bench:world), so it is taken a
 * slice a tick instead.
 */
export const SAVE_SLICES = 10;

/** What a world room's tick advances, and how it reaches the room's clients. */
export interface TickParts {
  world: World;
  phases: TickPhases<WorldTickPhase | string>;
  events: EventContext;
  trades: TradeDesk;
  /** The features' desks, each run in its tick phase. */
  desks: readonly OpenDesk[];
  stores: StoreDesk;
  /** Interest management (rooms/interest/worldInterest.ts). */
  interest: WorldInterest;
  sessions: ReadonlyMap<string, Session>;
  locks: RoomCharacterLocks;
  /** The ticks of one SAVE_INTERVAL. */
  saveEveryTicks: number;
  /** The room's schema patch to its clients. */
  broadcastPatch(): void;
  /** A player's private state to its client, now. */
  syncPlayer(playerId: string): void;
  /** Flags clients that ask for more than the rules allow and gains beyond play (rooms/worldWatchdog.ts). */
  watchdog: { tick(): void };
}

/**
 * One game tick, phase by phase. Client messages are applied as they arrive, between ticks
 * (they set what a player is doing); the rules then advance everything once, the world's
 * events become messages, and the tick's changes go out before the change tracking starts again.
 */
export function runTick(t: TickParts): void {
  const w = t.world;
  const phase = t.phases;
  let updates = new Map<string, WorldUpdate>();
  phase.run("players", () => {
    w.tick++;
    tickPlayers(w);
  });
  phase.run("npcs", () => tickNpcs(w));
  phase.run("resources", () => tickResources(w));
  phase.run("groundItems", () => tickGroundItems(w));
  phase.run("stores", () => tickStores(w));
  phase.run("events", () => dispatchEvents(t.events, w.events.drain()));
  phase.run("trades", () => t.trades.tick());
  for (const d of t.desks) phase.run(d.feature.phase, () => d.desk.tick());
  phase.run("sync", () => t.interest.syncState());
  phase.run("views", () => (updates = t.interest.updateViews()));
  phase.run("send", () => sendMessages(t, updates));
  phase.run("patch", () => t.broadcastPatch());
  phase.run("handOver", () => t.interest.afterPatch());
  phase.run("save", () => periodicSaves(t));
  phase.run("watchdog", () => t.watchdog.tick());
  phase.run("endTick", () => w.endTick());
}

/** The tick's messages (before its schema patch): view deltas and changed private states. */
function sendMessages(t: TickParts, updates: Map<string, WorldUpdate>) {
  for (const [playerId, update] of updates) {
    const s = t.sessions.get(playerId);
    s?.client.send("world:update", updateInForm(update, s.updatesAsChanges));
  }
  for (const s of t.sessions.values()) {
    const p = t.world.players.get(s.playerId);
    if (p?.privateDirty) t.syncPlayer(s.playerId);
  }
}

/**
 * Every SAVE_INTERVAL the changed characters are saved, in slices over the interval's last
 * SAVE_SLICES ticks (each character in the slice of its id's turn; the changed chunks with the
 * first, the shelves with each); every few seconds each lock refreshed (an eighth of them each tick).
 */
function periodicSaves(t: TickParts) {
  const w = t.world;
  const slices = Math.min(SAVE_SLICES, t.saveEveryTicks);
  const slice = (w.tick % t.saveEveryTicks) - (t.saveEveryTicks - slices);
  if (slice >= 0) t.stores.saveDirty(saveSlice(slice, slices)).catch(() => {});
  t.locks.refresh(t.sessions.keys(), w.tick, LOCK_REFRESH_TICKS);
}
