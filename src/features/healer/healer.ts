import { GameError } from "../../game/types.js";
import { maxHealth } from "../../game/skills.js";
import { inCombat } from "../../game/world/combatState.js";
import type { NpcEntity, PlayerEntity } from "../../game/world/entities.js";
import type { World } from "../../game/world/World.js";

/**
 * A healer (an npc whose services name `healer`, such as the duel arena's nurse): talking to it
 * restores health and prayer points in full. Refused with IN_COMBAT to a player who gave or took a
 * blow in the last 10 seconds, so no one is patched up in the middle of a fight.
 */
export function heal(world: World, p: PlayerEntity, npc: NpcEntity) {
  if (inCombat(p, world.tick)) throw new GameError("IN_COMBAT", `The ${npc.name} won't tend you in the middle of a fight`);
  const health = maxHealth(p.levels.constitution);
  const prayer = p.levels.prayer;
  if (p.health >= health && p.prayer.points >= prayer) {
    world.events.push({ kind: "notice", playerId: p.id, code: "HEALED", message: `${npc.name}: You're in fine shape already.` });
    return;
  }
  p.health = health;
  p.prayer.points = prayer;
  world.touchPlayer(p, true);
  world.events.push({ kind: "notice", playerId: p.id, code: "HEALED", message: `${npc.name} restores your health and prayer.` });
}
