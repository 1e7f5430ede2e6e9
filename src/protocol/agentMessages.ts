import type { GatheringSkill, ProductionKind } from "./vocabulary.js";

/** The messages to an agent driven by an external runtime, and the goal and command shapes they carry (docs/API.md, Agents). */

export type AgentGoalType = "woodcutting" | "mining" | "fishing" | ProductionKind | "combat" | "bank" | "pickup" | "buy" | "sell" | "quest" | "idle";

/** A goal as its owner and an external runtime see it. */
export interface AgentGoalView {
  id: string;
  type: AgentGoalType;
  /**
   * A resource id (gathering), a recipe's output item id (smelting, smithing, crafting, fletching,
   * runecrafting, tanning), an npc definition id (combat), an item id (buy), a quest id (quest), or null.
   */
  target: string | null;
  source: "auto" | "owner" | "command";
  /**
   * `bought`, `sold`: items dealt in stores; `coins`: what those deals brought in (negative: spent);
   * `made`: items of the target a production goal made (its `production:made`).
   */
  progress: { xpGained: number; gathered: number; banked: number; pickedUp: number; kills: number; bought: number; sold: number; coins: number; made: number };
  /** How many to make (production) or buy (buy); null: no end (production) or one (buy). */
  count: number | null;
  resume: { type: AgentGoalType; target: string | null } | null;
}

/** An owner's chat-style command, parsed. */
export type AgentCommand =
  | { kind: "gather"; skill: GatheringSkill }
  /** Make something: the skill named (null: "make ..."), the item named (null: the best it can), how many (null: no end). */
  | { kind: "make"; skill: ProductionKind | null; item: string | null; count: number | null }
  | { kind: "attack"; npc: string | null }
  | { kind: "pickup" }
  | { kind: "bank" }
  | { kind: "buy"; item: string }
  | { kind: "sell" }
  | { kind: "quest"; quest: string | null }
  | { kind: "stop" }
  | { kind: "idle" };

/** Why a spectator stopped watching: the agent left the world, another login took its character over, or the watch token expired. */
export type SpectateEnd = "left" | "replaced" | "expired";

export interface AgentMessages {
  goalOverride: { goal?: AgentGoalView | null; goalsPaused?: boolean };
  agentMessage: { content: string; command: AgentCommand | null };
  /**
   * To a spectator (a client joined with a watch token), first: whom it watches. Then it is sent
   * what the agent is sent (its `player:sync`, every `world:update` in the whole form, its events).
   */
  "spectate:started": { agentId: string; characterId: string; name: string; world: number };
  /** To a spectator, last (the connection then closes with 4110 WATCH_ENDED): the agent is no longer here to watch. */
  "spectate:ended": { reason: SpectateEnd; message: string };
}
