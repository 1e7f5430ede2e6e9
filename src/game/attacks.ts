/**
 * One blow of any kind, pure: who may use which style with which weapon, and the odds of a melee
 * swing, a shot or a cast against a defender (a player or an npc), with the active prayers'
 * boosts already applied to the levels given. The formulas themselves live with each kind:
 * melee in combat.ts, ranged in ranged.ts, magic in magic.ts.
 *
 * Defence against each kind (the old-school rules):
 *   melee, ranged  effDef = defence + 8 + style bonus, times (the matching defence bonus + 64)
 *   magic          a player: effDef = floor(0.7 x magic + 0.3 x defence) + 8; an npc: its magic + 8;
 *                  times (magic defence bonus + 64)
 */
import type { ItemDef } from "../manifests/gameData.js";
import { COMBAT_STYLES, type CombatStyle } from "../protocol/vocabulary.js";
import { defenceRoll, hitChance, maxHit, attackRoll, STYLE_BONUS } from "./combat.js";
import type { Bonuses } from "./equipment.js";
import { magicAttackRoll } from "./magic.js";
import { isBow, rangedAttackRoll, rangedMaxHit, type RangedStyle } from "./ranged.js";
import { GameError, type Rng } from "./types.js";

export type AttackKind = "melee" | "ranged" | "magic";

export const MELEE_STYLES = ["accurate", "aggressive", "defensive", "controlled"] as const satisfies readonly CombatStyle[];
export const BOW_STYLES = ["accurate", "rapid", "longrange"] as const satisfies readonly CombatStyle[];

/** A staff (a magic weapon: it may autocast). */
export const isStaff = (item: ItemDef | undefined): boolean => item?.weaponType?.toUpperCase() === "STAFF" || item?.attackType?.toUpperCase() === "MAGIC";

/** The styles a weapon offers (bare hands and every non-bow weapon: the melee ones). */
export function stylesFor(weapon: ItemDef | undefined): readonly CombatStyle[] {
  return isBow(weapon) ? BOW_STYLES : MELEE_STYLES;
}

/** The style a player may choose with this weapon (STYLE_NOT_AVAILABLE otherwise). */
export function checkStyle(weapon: ItemDef | undefined, style: CombatStyle): CombatStyle {
  if (!COMBAT_STYLES.includes(style) || !stylesFor(weapon).includes(style)) {
    const name = weapon ? `a ${weapon.name.toLowerCase()}` : "bare hands";
    throw new GameError("STYLE_NOT_AVAILABLE", `You can't fight ${style} with ${name}: choose ${stylesFor(weapon).join(", ")}`);
  }
  return style;
}

/** The style kept after a weapon change: the same when the new weapon offers it, else its first. */
export function styleAfterSwitch(weapon: ItemDef | undefined, style: CombatStyle): CombatStyle {
  const offered = stylesFor(weapon);
  return offered.includes(style) ? style : offered[0]!;
}

/** Levels as the formulas see them (prayer boosts applied). */
export interface FighterLevels {
  attack: number;
  strength: number;
  defense: number;
  /** Ranged accuracy (and max hit, unless `rangedStrength` is given). */
  ranged: number;
  /** Magic accuracy (and magic defence, unless `magicDefense` is given). */
  magic: number;
  /** Ranged as the max hit sees it (a prayer may boost it apart from accuracy). */
  rangedStrength?: number;
  /** Magic as a player's magic defence sees it. */
  magicDefense?: number;
}

/** Equipment bonuses that matter to a blow: the worn sums of src/game/equipment.ts but prayer. */
export type FighterGear = Omit<Bonuses, "prayer">;

export const NO_GEAR: FighterGear = { attack: 0, strength: 0, defense: 0, ranged: 0, rangedStrength: 0, magic: 0, defenseRanged: 0, defenseMagic: 0 };

export interface Fighter {
  levels: FighterLevels;
  gear: FighterGear;
  style?: CombatStyle;
  /** Npcs defend against magic with their magic level alone. */
  isNpc?: boolean;
}

/** The defender's roll against a blow of `kind`. */
export function defenceRollAgainst(kind: AttackKind, d: Fighter): number {
  const styleDef = d.style ? STYLE_BONUS[d.style].defense : 0;
  if (kind === "melee") return defenceRoll(d.levels.defense, d.gear.defense, styleDef);
  if (kind === "ranged") return defenceRoll(d.levels.defense, d.gear.defenseRanged, styleDef);
  const magic = d.levels.magicDefense ?? d.levels.magic;
  const level = d.isNpc ? magic : Math.floor(0.7 * magic + 0.3 * d.levels.defense);
  return defenceRoll(level, d.gear.defenseMagic);
}

/** The max hit and the chance to hit of one blow. `spellMaxHit` is the cast spell's (magic only). */
export function blowOdds(kind: AttackKind, a: Fighter, d: Fighter, spellMaxHit = 0): { maxHit: number; chance: number } {
  const def = defenceRollAgainst(kind, d);
  if (kind === "melee") {
    const s = a.style ? STYLE_BONUS[a.style] : { attack: 0, strength: 0 };
    return { maxHit: maxHit(a.levels.strength, a.gear.strength, s.strength), chance: hitChance(attackRoll(a.levels.attack, a.gear.attack, s.attack), def) };
  }
  if (kind === "ranged") {
    const style = (BOW_STYLES as readonly string[]).includes(a.style ?? "") ? (a.style as RangedStyle) : "accurate";
    return {
      maxHit: rangedMaxHit(a.levels.ranged, a.gear.rangedStrength, style),
      chance: hitChance(rangedAttackRoll(a.levels.ranged, a.gear.ranged, style), def),
    };
  }
  return { maxHit: spellMaxHit, chance: hitChance(magicAttackRoll(a.levels.magic, a.gear.magic), def) };
}

/**
 * One blow: the damage dealt (0 on a miss), and whether it missed outright (a spell that misses
 * splashes). Draws one number for the hit and, on a hit, one for the damage, uniform in 0..maxHit.
 */
export function rollBlow(rng: Rng, kind: AttackKind, a: Fighter, d: Fighter, spellMaxHit = 0): { damage: number; missed: boolean } {
  const { maxHit: max, chance } = blowOdds(kind, a, d, spellMaxHit);
  if (rng() >= chance) return { damage: 0, missed: true };
  return { damage: Math.min(max, Math.floor(rng() * (max + 1))), missed: false };
}
