import { EventEmitter } from "node:events";
import { InMemoryRoomClient } from "../../rooms/inMemoryClient.js";
import { newMind, step, type Mind } from "./brain.js";
import { describeOrders } from "./doing.js";
import type { Goal } from "./goals.js";
import type { WorldKnowledge } from "../game/world/knowledge.js";
import { isProductionKind } from "./productionPlan.js";
import { AgentView } from "./view.js";
import { GATHERING_SKILLS, type ServerMessageArgs } from "../protocol/index.js";

/**
 * One agent in the built-in runtime: a room client like any other (it joined through the
 * matchmaker with its own token), which reads what the room sends it into its view and, after
 * every world tick, sends the orders its mind decides on.
 */
export class AgentDriver extends InMemoryRoomClient {
  /** What the agent knows of the world (not `view`: that is the room's StateView slot on every client). */
  readonly sight = new AgentView();
  readonly mind: Mind = newMind();
  /** Called when the room let the agent go (another login took the character, a kick, shutdown). */
  onGone: ((code?: number) => void) | undefined;
  /** Called whenever the goal changed (to record it). */
  onGoalChange: ((goal: Goal | null, previous: Goal | null) => void) | undefined;
  /** Called when what it does changed (its orders in words, src/agents/doing.ts): for its activity. */
  onDoing: ((doing: string) => void) | undefined;
  private lastDoing: string | null = null;
  /** Every message the room sent it, as `message` (type, data), after the agent took it in; `goal` (goal, previous) on every change. */
  readonly heard = new EventEmitter();
  private scheduled = false;

  constructor(
    sessionId: string,
    readonly agentId: string,
    private readonly knowledge: WorldKnowledge,
  ) {
    super(sessionId);
  }

  /** What the room sends: `type` narrows `message` to its payload (src/protocol). */
  send(...[type, message]: ServerMessageArgs) {
    if (this.closed) return;
    switch (type) {
      case "player:sync":
        this.sight.sync(message);
        break;
      case "world:update":
        this.sight.update(message);
        this.schedule();
        break;
      case "error":
        this.mind.lastError = message.code;
        break;
      case "skill:xp": {
        // Something gathered: for a gathering goal in its skill, for a quest or a production goal in any gathering skill.
        const g = this.mind.goal;
        const gatheredBy = (GATHERING_SKILLS as readonly string[]).includes(message.skill);
        const counts = g?.type === message.skill || g?.type === "quest" || isProductionKind(g?.type ?? "");
        if (g && gatheredBy && counts && message.gained > 0) g.progress.gathered++;
        break;
      }
      case "production:made": {
        // Items of its target a production goal made.
        const g = this.mind.goal;
        if (g && g.type === message.kind && g.target === message.recipeId) {
          g.progress.made += message.made.filter((m) => m.itemId === message.recipeId).reduce((n, m) => n + m.quantity, 0);
        }
        break;
      }
      case "npc:killed":
        if (this.mind.goal?.type === "combat" || this.mind.goal?.type === "quest") this.mind.goal.progress.kills++;
        break;
      // What it waited for came: the next step goes on.
      case "dialogue:node":
        this.sight.dialogueShown(message);
        this.mind.pending = null;
        break;
      case "dialogue:end":
        this.sight.dialogueShown(null);
        break;
      case "store:open":
        this.sight.storeShown(message);
        this.mind.pending = null;
        break;
      case "store:update":
        this.sight.storeUpdated(message);
        break;
      case "store:close":
        this.sight.storeShown(null);
        break;
      case "store:bought":
      case "store:sold":
        this.mind.deals.push({ kind: type === "store:bought" ? "buy" : "sell", itemId: message.itemId, quantity: message.quantity, coins: message.coins });
        this.mind.pending = null;
        break;
    }
    this.heard.emit("message", type, message);
  }

  /** Decide after the tick that sent the update (never inside the room's own loop). */
  private schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.closed) this.act();
    });
  }

  /** One step: decide, then send the orders as the room's messages. */
  act() {
    const before = this.mind.goal;
    const orders = step(this.mind, this.sight, this.knowledge);
    if (this.mind.goal !== before) {
      this.onGoalChange?.(this.mind.goal, before);
      this.heard.emit("goal", this.mind.goal, before);
    }
    const doing = describeOrders(orders, this.sight, this.knowledge);
    if (doing && doing !== this.lastDoing) {
      this.lastDoing = doing;
      this.onDoing?.(doing);
    }
    for (const o of orders) this.sendToRoom(o.type, o.data);
  }

  protected onLeave(code?: number) {
    this.onGone?.(code);
  }
}
