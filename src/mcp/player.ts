import { AgentDriver } from "../agents/driver.js";
import type { WorldKnowledge } from "../game/world/knowledge.js";
import type { ServerMessageArgs, ServerMessages, StationView, TradeEvents } from "../protocol/index.js";

/** A message the room sent the session's player, as the MCP session keeps it. */
export interface Heard {
  type: string;
  data: any;
  /** The world tick it came in (the last `world:update`'s). */
  tick: number;
}

/** Is this message the `notice` of that code? */
export const isNotice = (h: Heard, code: string) => h.type === "notice" && h.data.code === code;

/** Messages an observe lists among "what happened": everything but the view's own updates. */
const QUIET: ReadonlySet<string> = new Set(["world:update", "player:sync", "store:update", "goalOverride"]);
/** Most events kept between two answers (the oldest go first, and are counted). */
export const MAX_EVENTS = 500;

/** Where a trade of the player stands, from the trade events it was sent. */
export interface TradeStanding {
  tradeId: string;
  /** `requested`: its own request, unanswered; `incoming`: a request to it; then the two screens. */
  screen: "requested" | "incoming" | "offer" | "confirm";
  partnerId: string;
  partnerName: string;
  myOffer?: TradeEvents["tradeUpdated"]["myOffer"];
  theirOffer?: TradeEvents["tradeUpdated"]["theirOffer"];
  values?: TradeEvents["tradeConfirmScreen"]["values"];
}

type Listener = (m: Heard) => void;

/**
 * The room's side of an MCP session's player: a room client like the built-in agents' (it is one:
 * what the room sends is read into the same view, and a goal handed to it is played by the
 * built-in runtime's mind), which also keeps what an MCP client asks about: the stations in view,
 * the trade and duel it is in, the events since the session's last answer, and listeners for the tools
 * waiting on an outcome. Autonomous goals are off: it acts only when a tool asks, or on a goal set
 * with `set_goal`.
 */
export class McpPlayer extends AgentDriver {
  readonly stations = new Map<string, StationView>();
  /** What happened since the session's last answer (bounded: `dropped` counts the events let go). */
  events: Heard[] = [];
  dropped = 0;
  /** Who struck the player, and the tick of their last blow (the vitals' `underAttackBy`). */
  readonly attackedBy = new Map<string, number>();
  trade: TradeStanding | null = null;
  /** The duel it is in, as its latest duel event told it (type and payload), or null. */
  duel: Heard | null = null;
  /** The tanner's offer last shown (`tanner:open`), until a dialogue or store replaces it. */
  tanner: ServerMessages["tanner:open"] | null = null;
  private readonly listeners = new Set<Listener>();

  constructor(sessionId: string, knowledge: WorldKnowledge) {
    super(sessionId, `mcp:${sessionId}`, knowledge);
    this.mind.paused = true;
    this.heard.on("message", (type: string, data: unknown) => this.note(type, data));
  }

  /** Listen to every message the room sends (until the returned function is called). */
  listen(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** The events since the last answer, oldest first: each goes to exactly one answer (src/mcp/answers.ts). */
  takeEvents(): { events: Heard[]; dropped: number } {
    const out = { events: this.events, dropped: this.dropped };
    this.events = [];
    this.dropped = 0;
    return out;
  }

  private note(type: string, data: any) {
    const m: Heard = { type, data, tick: this.sight.tick };
    if (type === "world:update") {
      for (const s of data.stations ?? []) this.stations.set(s.id, s);
      for (const id of data.removed ?? []) this.stations.delete(id);
    } else this.follow(...([type, data] as ServerMessageArgs));
    if (type === "combat:hit" && data.targetId === this.sight.self?.id) this.attackedBy.set(data.attackerId, this.sight.tick);
    if (!QUIET.has(type)) {
      this.events.push(m);
      if (this.events.length > MAX_EVENTS) {
        this.events.shift();
        this.dropped++;
      }
    }
    for (const l of [...this.listeners]) l(m);
  }

  /** Keep the trade, duel and tanner standing up to date. */
  private follow(...[type, data]: ServerMessageArgs) {
    switch (type) {
      case "tradeRequestSent":
        this.trade = { tradeId: data.tradeId, screen: "requested", partnerId: data.targetPlayerId, partnerName: data.targetName };
        break;
      case "tradeIncoming":
        // A request to it while it trades already stays an event (it may answer it by id).
        if (!this.trade) this.trade = { tradeId: data.tradeId, screen: "incoming", partnerId: data.fromPlayerId, partnerName: data.fromPlayerName };
        break;
      case "tradeStarted":
        this.trade = { tradeId: data.tradeId, screen: "offer", partnerId: data.partnerId, partnerName: data.partnerName };
        break;
      case "tradeUpdated":
        if (this.trade?.tradeId === data.tradeId)
          this.trade = { ...this.trade, screen: "offer", myOffer: data.myOffer, theirOffer: data.theirOffer, values: undefined };
        break;
      case "tradeConfirmScreen":
        if (this.trade?.tradeId === data.tradeId)
          this.trade = { ...this.trade, screen: "confirm", myOffer: data.myOffer, theirOffer: data.theirOffer, values: data.values };
        break;
      case "tradeCompleted":
      case "tradeCancelled":
        if (this.trade?.tradeId === data.tradeId) this.trade = null;
        break;
      case "duel:ended":
      case "duel:cancelled":
        this.duel = null;
        break;
      case "duel:requestSent":
      case "duel:incoming":
      case "duel:screen":
      case "duel:countdown":
      case "duel:fight":
        this.duel = { type, data, tick: this.sight.tick };
        break;
      case "tanner:open":
        this.tanner = data;
        break;
      case "dialogue:node":
      case "store:open":
        this.tanner = null;
        break;
    }
  }
}
