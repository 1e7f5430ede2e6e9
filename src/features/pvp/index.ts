import type { WorldFeature } from "../../game/world/World.js";
import { checkPvp, holdsLogout, killedInPvp, PVP_VARS, struckInPvp, tickSkull } from "./pvpRules.js";

/** Fights between players in PvP areas: the level bracket, skulls, the items kept and the killer's loot, no logout mid-fight. */
export const pvp: WorldFeature = {
  name: "pvp",
  vars: PVP_VARS,
  playerTick: tickSkull,
  playerCombat: { check: checkPvp, struck: struckInPvp, killed: killedInPvp },
  holdsLogout,
};
