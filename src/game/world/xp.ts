import { addXp, combatLevel, skillLevels } from "../skills.js";
import type { SkillName } from "../types.js";
import type { PlayerEntity } from "./entities.js";
import type { World } from "./World.js";

/** Grant experience, announcing it (skill:xp) and any level gained. */
export function grantXp(world: World, p: PlayerEntity, skill: SkillName, amount: number) {
  if (!(amount > 0)) return;
  const r = addXp(p.xp, skill, amount);
  p.xp = r.xp;
  if (r.gained <= 0) return;
  const combatBefore = p.combatLevel;
  refreshLevels(p);
  world.touchPlayer(p, p.combatLevel !== combatBefore);
  world.events.push({ kind: "xp", playerId: p.id, skill, xp: Math.floor(p.xp[skill]), level: r.newLevel, gained: r.gained });
  if (r.leveledUp) world.events.push({ kind: "levelUp", playerId: p.id, skill, level: r.newLevel });
}

/** Recompute levels and combat level after xp changed. */
export function refreshLevels(p: PlayerEntity) {
  p.levels = skillLevels(p.xp);
  p.combatLevel = combatLevel(p.levels);
}
