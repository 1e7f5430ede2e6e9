import type { WorldFeature } from "../../game/world/World.js";
import { DuelMessages } from "../../protocol/index.js";
import type { DeskFeature } from "../../worldDesks.js";
import { DuelDesk } from "./duelDesk.js";
import { arenasOf, DUEL_ARENAS_FILE } from "./duelArenas.js";
import { attachDuels, busyDuelling, duelFights, duelsOf } from "./duelWorld.js";

export { arenasOf } from "./duelArenas.js";
export { duelsOf } from "./duelWorld.js";

/**
 * Staked duels: a challenge, three screens (the rules, the stakes, the confirm screen), a fight in an
 * arena of duel-arenas.json under the rules agreed, and the loser's stake moved to the winner in one
 * transaction. Its world part keeps each world's duel book and answers the engine's questions about
 * a fight; its desk runs the duel messages and writes the settlements.
 */
export const duel: WorldFeature = {
  name: "duel",
  manifests: [DUEL_ARENAS_FILE],
  attach: attachDuels,
  // What duel-arenas.json had that cannot be played is told as the world is populated.
  populate: (world) => {
    for (const message of arenasOf(world.data).warnings) world.events.push({ kind: "contentWarning", message });
  },
  ruledFights: duelFights,
  playerGone: (world, playerId, reason) => duelsOf(world).playerGone(playerId, reason),
  callOff: (world, message) => duelsOf(world).cancelAll(message),
  busyWith: busyDuelling,
};

/** The duel desk of every world room. */
export const duelDesk: DeskFeature = {
  name: "duel",
  phase: "duels",
  messages: Object.keys(DuelMessages),
  errorType: "duel:error",
  request: "duel:challenge",
  open: (options) => new DuelDesk(options),
};
