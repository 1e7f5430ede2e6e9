/**
 * Melee combat, with the formulas the RuneScape community documents for the old-school game:
 *
 *   effective level  = level + 8 + style bonus            (no prayers or potions yet)
 *   max hit          = floor(0.5 + effStr * (strengthBonus + 64) / 640)
 *   attack roll      = effAtt * (attackBonus + 64)
 *   defence roll     = effDef * (defenseBonus + 64)
 *   hit chance       = att > def ? 1 - (def + 2) / (2 * (att + 1))
 *                                : att / (2 * (def + 1))
 *   damage on a hit  = uniform integer in 0..maxHit (a successful roll may still deal 0)
 *
 * Style bonuses (the "invisible" levels of the attack style): accurate +3 attack, aggressive +3
 * strength, defensive +3 defence, controlled +1 to each.
 *
 * A blow of any kind (melee, ranged, magic) is rolled by src/game/attacks.ts with these formulas.
 *
 * Units: damage is applied as is, with no scaling, to both sides. Npcs have `stats.health` hit
 * points; a player's hit points are stored by the database as constitution level x 10 (100 at level
 * 10). The formulas above produce old-school sized hits (a level-1 fighter hits at most 1), so fights
 * against players last longer than against npcs of the same level: that is a balance choice of the
 * data, not a conversion here.
 */
import type { CombatStyle } from "../protocol/vocabulary.js";
import type { SkillName } from "./types.js";

// The styles are a word of the wire: defined once, in the protocol's vocabulary.

/** Invisible level bonus each style gives to attack, strength and defence. */
export const STYLE_BONUS: Readonly<Record<CombatStyle, { attack: number; strength: number; defense: number }>> = {
  accurate: { attack: 3, strength: 0, defense: 0 },
  aggressive: { attack: 0, strength: 3, defense: 0 },
  defensive: { attack: 0, strength: 0, defense: 3 },
  controlled: { attack: 1, strength: 1, defense: 1 },
  // The ranged styles: only longrange's defence shows in a defence roll (src/game/ranged.ts has their attack side).
  rapid: { attack: 0, strength: 0, defense: 0 },
  longrange: { attack: 0, strength: 0, defense: 3 },
};

/** level + 8 + style bonus. */
export function effectiveLevel(level: number, styleBonus = 0): number {
  return level + 8 + styleBonus;
}

/** The largest hit: floor(0.5 + effStr * (strengthBonus + 64) / 640), effStr = strength + 8 + style bonus. */
export function maxHit(strengthLevel: number, strengthBonus: number, styleBonus = 0): number {
  return Math.max(0, Math.floor(0.5 + (effectiveLevel(strengthLevel, styleBonus) * (strengthBonus + 64)) / 640));
}

/** effAtt * (attackBonus + 64). */
export function attackRoll(attackLevel: number, attackBonus: number, styleBonus = 0): number {
  return Math.max(0, effectiveLevel(attackLevel, styleBonus) * (attackBonus + 64));
}

/** effDef * (defenseBonus + 64). */
export function defenceRoll(defenseLevel: number, defenseBonus: number, styleBonus = 0): number {
  return Math.max(0, effectiveLevel(defenseLevel, styleBonus) * (defenseBonus + 64));
}

/** The chance an attack roll beats a defence roll. */
export function hitChance(attRoll: number, defRoll: number): number {
  if (attRoll > defRoll) return 1 - (defRoll + 2) / (2 * (attRoll + 1));
  return attRoll / (2 * (defRoll + 1));
}

/** Experience per point of damage to the style's skill (4), and to constitution (4/3). */
export const XP_PER_DAMAGE = 4;
export const CONSTITUTION_XP_PER_DAMAGE = 4 / 3;

/** Round experience to tenths, the precision RuneScape keeps. */
function tenths(xp: number): number {
  return Math.round(xp * 10) / 10;
}

/**
 * Experience earned for `damage` dealt with a melee style: 4 per damage to attack (accurate),
 * strength (aggressive) or defence (defensive); controlled splits it (styles follow the weapon, so
 * the ranged styles never reach here with a melee weapon: they would count as accurate and defensive), 1.33 (4/3) each to all three.
 * Constitution always gets 1.33 (4/3) per damage. Values are rounded to tenths; nothing for 0 damage.
 */
export function combatXpForDamage(damage: number, style: CombatStyle): Partial<Record<SkillName, number>> {
  if (!(damage > 0)) return {};
  const out: Partial<Record<SkillName, number>> = {};
  switch (style) {
    case "accurate":
    case "rapid":
      out.attack = tenths(damage * XP_PER_DAMAGE);
      break;
    case "aggressive":
      out.strength = tenths(damage * XP_PER_DAMAGE);
      break;
    case "defensive":
    case "longrange":
      out.defense = tenths(damage * XP_PER_DAMAGE);
      break;
    case "controlled": {
      const share = tenths((damage * XP_PER_DAMAGE) / 3);
      out.attack = share;
      out.strength = share;
      out.defense = share;
      break;
    }
  }
  out.constitution = tenths(damage * CONSTITUTION_XP_PER_DAMAGE);
  return out;
}
