import { NO_GEAR, type Fighter } from "../attacks.js";
import { equipmentBonuses } from "../equipment.js";
import { boostedLevel } from "../prayer.js";
import type { NpcEntity, PlayerEntity } from "./entities.js";
import type { World } from "./World.js";

/** Players and npcs as the combat formulas (src/game/attacks.ts) see them, for their blows either way. */

/** A player as the formulas see them: levels boosted by the active prayers, worn bonuses, style. */
export function playerFighter(world: World, p: PlayerEntity): Fighter {
  const pr = world.data.prayers;
  const on = p.prayer.active;
  const boost = (level: number, ...bonus: string[]) => boostedLevel(level, on, pr, bonus);
  // The data may boost ranged and magic as a whole or their accuracy, strength and defence apart.
  return {
    levels: {
      attack: boost(p.levels.attack, "attackMultiplier"),
      strength: boost(p.levels.strength, "strengthMultiplier"),
      defense: boost(p.levels.defense, "defenseMultiplier"),
      ranged: boost(p.levels.ranged, "rangedMultiplier", "rangedAttackMultiplier"),
      rangedStrength: boost(p.levels.ranged, "rangedMultiplier", "rangedStrengthMultiplier"),
      magic: boost(p.levels.magic, "magicMultiplier", "magicAttackMultiplier"),
      magicDefense: boost(p.levels.magic, "magicMultiplier", "magicDefenseMultiplier"),
    },
    gear: equipmentBonuses(p.equipment, world.data.items),
    style: p.combatStyle,
  };
}

/** An npc as the formulas see it: its stats, its one defence bonus against every kind. */
export function npcFighter(world: World, npc: NpcEntity): Fighter {
  const s = world.data.npcs.get(npc.defId)!.stats;
  return {
    levels: { attack: s.attack, strength: s.strength, defense: s.defense, ranged: s.ranged, magic: s.magic },
    gear: { ...NO_GEAR, defense: s.defenseBonus, defenseRanged: s.defenseBonus, defenseMagic: s.defenseBonus },
    isNpc: true,
  };
}
