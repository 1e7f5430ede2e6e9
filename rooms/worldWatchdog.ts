import type { Sighting } from "../src/db/flagRepo.js";
import { holdingsOf } from "../src/game/ledger.js";
import type { PlayerEntity } from "../src/game/world/entities.js";
import type { World } from "../src/game/world/World.js";

/**
 * What the watchdog flags, and past what (README, "Staff and moderation"). The server decides every
 * step itself, so no player ever moves or acts faster than the rules; what it flags is a client
 * that asks to (a bot, a tampered client) and gains beyond what play gives.
 */
export const FLAG_RULES = {
  /** Move orders within one second: the rules take one a tick (0.6 s); a person clicks a few. */
  movesPerSecond: 10,
  /** Move orders refused as impossible (too far, out of bounds, blocked, no path) within ten seconds. */
  impossibleMovesPer10s: 8,
  /** Orders of any kind within one second. */
  ordersPerSecond: 25,
  /** Experience gained in all skills within an hour. */
  xpPerHour: 200_000,
  /** Value held (pack, worn, bank; coins at 1, items at their manifest value) gained within ten minutes. */
  wealthPer10Min: 1_000_000,
} as const;

/** Each player's xp and wealth are sampled once in this many ticks (a minute), a slice of the players each tick. */
export const SAMPLE_TICKS = 100;
/** A character is flagged of one kind at most once a minute (each sighting counts on its open flag). */
const RAISE_EVERY_MS = 60_000;
/** The refusals that say a move was impossible. */
const IMPOSSIBLE_MOVES: ReadonlySet<string> = new Set(["TOO_FAR", "OUT_OF_BOUNDS", "BLOCKED", "NO_PATH"]);

interface Watched {
  accountId: string;
  orders: number[];
  moves: number[];
  impossible: number[];
  /** One a minute, the last hour's: when, total xp, value held. */
  samples: Array<{ at: number; xp: number; wealth: number }>;
  raised: Map<string, number>;
}

/** Keep the times within `ms` of `now` (oldest first), after adding `now`; how many are left. */
function within(times: number[], now: number, ms: number): number {
  times.push(now);
  let drop = 0;
  while (drop < times.length && times[drop] <= now - ms) drop++;
  if (drop) times.splice(0, drop);
  return times.length;
}

/**
 * The watchdog of one world room: it counts each player's orders as they come (too many moves, too
 * many impossible moves, too many orders a second) and samples each player's xp and wealth once a
 * minute (more than an hour's worth of xp, a sudden fortune). What it sees is raised with its
 * evidence (`raise`: the flagged list, src/db/flagRepo.ts); it changes nothing in the game.
 */
export class WorldWatchdog {
  private readonly watched = new Map<string, Watched>();

  constructor(
    private readonly o: {
      world: World;
      worldId: number;
      /** The room's sessions: whose account each player is. */
      sessions: ReadonlyMap<string, { accountId: string }>;
      raise: (s: Sighting) => void;
      now?: () => number;
    },
  ) {}

  private now() {
    return (this.o.now ?? Date.now)();
  }

  private of(playerId: string, accountId: string): Watched {
    let w = this.watched.get(playerId);
    if (!w) this.watched.set(playerId, (w = { accountId, orders: [], moves: [], impossible: [], samples: [], raised: new Map() }));
    return w;
  }

  /** An order from a player's client (a world command), and its refusal's code, if refused. */
  order(session: { playerId: string; accountId: string }, type: string, refused?: string): void {
    const w = this.of(session.playerId, session.accountId);
    const now = this.now();
    const orders = within(w.orders, now, 1000);
    if (orders >= FLAG_RULES.ordersPerSecond)
      this.raise(session.playerId, w, "action_rate", { ordersInOneSecond: orders, limit: FLAG_RULES.ordersPerSecond, last: type });
    if (type !== "player:move") return;
    const moves = within(w.moves, now, 1000);
    if (moves >= FLAG_RULES.movesPerSecond) this.raise(session.playerId, w, "movement", { movesInOneSecond: moves, limit: FLAG_RULES.movesPerSecond });
    if (refused && IMPOSSIBLE_MOVES.has(refused)) {
      const impossible = within(w.impossible, now, 10_000);
      if (impossible >= FLAG_RULES.impossibleMovesPer10s)
        this.raise(session.playerId, w, "movement", { impossibleMovesIn10s: impossible, limit: FLAG_RULES.impossibleMovesPer10s, refused });
    }
  }

  /** Each tick: a slice of the players sampled (each once in SAMPLE_TICKS ticks). */
  tick(): void {
    const { world } = this.o;
    const slice = world.tick % SAMPLE_TICKS;
    let i = 0;
    for (const p of world.players.values()) {
      if (i++ % SAMPLE_TICKS !== slice) continue;
      const accountId = this.o.sessions.get(p.id)?.accountId;
      if (accountId) this.sample(p, this.of(p.id, accountId));
    }
  }

  /** Sample one player now (the tick's slice does it; tests may ask). */
  sample(p: PlayerEntity, w: Watched | undefined = this.watched.get(p.id)): void {
    const accountId = this.o.sessions.get(p.id)?.accountId;
    w ??= accountId ? this.of(p.id, accountId) : undefined;
    if (!w) return;
    const now = this.now();
    const xp = Object.values(p.xp).reduce((n: number, v) => n + (v as number), 0);
    let wealth = 0;
    for (const [itemId, n] of holdingsOf(p)) wealth += n * (itemId === "coins" ? 1 : (this.o.world.data.items.get(itemId)?.value ?? 0));
    w.samples.push({ at: now, xp, wealth });
    while (w.samples.length > 0 && w.samples[0].at < now - 3600_000) w.samples.shift();
    const hourAgo = w.samples[0];
    if (xp - hourAgo.xp > FLAG_RULES.xpPerHour)
      this.raise(p.id, w, "xp_rate", { xpGained: xp - hourAgo.xp, sinceMinutes: Math.round((now - hourAgo.at) / 60_000), limit: FLAG_RULES.xpPerHour });
    const tenAgo = w.samples.find((s) => s.at >= now - 600_000) ?? hourAgo;
    if (wealth - tenAgo.wealth > FLAG_RULES.wealthPer10Min)
      this.raise(p.id, w, "wealth", {
        valueGained: wealth - tenAgo.wealth,
        from: tenAgo.wealth,
        to: wealth,
        sinceMinutes: Math.round((now - tenAgo.at) / 60_000),
        limit: FLAG_RULES.wealthPer10Min,
      });
  }

  left(playerId: string): void {
    this.watched.delete(playerId);
  }

  private raise(playerId: string, w: Watched, kind: Sighting["kind"], evidence: Record<string, unknown>) {
    const now = this.now();
    if (now - (w.raised.get(kind) ?? -Infinity) < RAISE_EVERY_MS) return;
    w.raised.set(kind, now);
    const p = this.o.world.players.get(playerId);
    this.o.raise({
      kind,
      characterId: playerId,
      accountId: w.accountId,
      name: p?.name ?? playerId,
      world: String(this.o.worldId),
      evidence: { ...evidence, tile: p?.tile ?? null },
    });
  }
}
