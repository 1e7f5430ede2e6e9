/**
 * Ranged combat, pure, with the old-school formulas the community documents (as melee's in combat.ts):
 *
 *   effective ranged = boosted ranged level + 8 + style bonus (accurate +3)
 *   max hit          = floor(0.5 + effRanged * (rangedStrength + 64) / 640)   (the arrows' strength)
 *   attack roll      = effRanged * (rangedAttackBonus + 64)                   (the bow's and gear's)
 *   speed            = the bow's, one tick faster with the rapid style
 *   reach            = the bow's range, two tiles more with longrange (at most 10)
 *
 * A bow needs arrows in the ammunition slot that fit it: an arrow's `requiredBowTier` at most the
 * bow's tier level (its ranged requirement, else its tier's usual level) and its
 * `requiredRangedLevel` at most the player's. Each shot uses one arrow: it breaks with
 * ARROW_BREAK_CHANCE, else it lands under the target.
 */
import type { AmmoDef } from "../manifests/combat.js";
import type { ItemDef } from "../manifests/gameData.js";
import { effectiveLevel } from "./combat.js";
import { chance } from "./random.js";
import { GameError, type Rng } from "./types.js";

export const RANGED_STYLES = ["accurate", "rapid", "longrange"] as const;
export type RangedStyle = (typeof RANGED_STYLES)[number];

/** The chance a shot arrow breaks rather than landing under the target. */
export const ARROW_BREAK_CHANCE = 0.2;
/** The farthest any bow reaches. */
export const MAX_RANGED_REACH = 10;
/** A bow tier's usual ranged level, when the bow's data gives no requirement. */
export const BOW_TIER_LEVELS: Readonly<Record<string, number>> = { normal: 1, oak: 5, willow: 20, maple: 30, yew: 40, magic: 50 };

export const isBow = (item: ItemDef | undefined): boolean => item?.weaponType?.toUpperCase() === "BOW" || item?.attackType?.toUpperCase() === "RANGED";

/** The level a bow's tier stands for. */
export function bowTierLevel(bow: ItemDef): number {
  return bow.requirements?.skills?.ranged ?? BOW_TIER_LEVELS[bow.tier ?? "normal"] ?? 1;
}

/**
 * The arrows may be shot from this bow by this player: NO_AMMO (none worn), WRONG_AMMO (not arrows,
 * or too good for the bow), LEVEL_TOO_LOW (the arrows' ranged level).
 */
export function checkAmmo(bow: ItemDef, arrowId: string | undefined, ammo: ReadonlyMap<string, AmmoDef>, rangedLevel: number): AmmoDef {
  if (!arrowId) throw new GameError("NO_AMMO", "You have no arrows equipped");
  const arrow = ammo.get(arrowId);
  if (!arrow) throw new GameError("WRONG_AMMO", "You can't fire that from a bow");
  if (arrow.requiredBowTier > bowTierLevel(bow)) throw new GameError("WRONG_AMMO", `Your ${bow.name.toLowerCase()} can't fire ${arrow.id.replace(/_/g, " ")}s`);
  if (arrow.requiredRangedLevel > rangedLevel) throw new GameError("LEVEL_TOO_LOW", `You need level ${arrow.requiredRangedLevel} ranged to use those arrows`);
  return arrow;
}

const styleBonus = (style: RangedStyle) => (style === "accurate" ? 3 : 0);

export function rangedMaxHit(rangedLevel: number, rangedStrength: number, style: RangedStyle): number {
  return Math.max(0, Math.floor(0.5 + (effectiveLevel(rangedLevel, styleBonus(style)) * (rangedStrength + 64)) / 640));
}

export function rangedAttackRoll(rangedLevel: number, rangedAttackBonus: number, style: RangedStyle): number {
  return Math.max(0, effectiveLevel(rangedLevel, styleBonus(style)) * (rangedAttackBonus + 64));
}

/** Ticks between shots: the bow's speed, one less with rapid (never under 1). */
export function rangedSpeedTicks(bowSpeedTicks: number, style: RangedStyle): number {
  return Math.max(1, bowSpeedTicks - (style === "rapid" ? 1 : 0));
}

/** How far (Chebyshev tiles) the bow reaches: its range, +2 with longrange, at most MAX_RANGED_REACH. */
export function rangedReach(bowRange: number | undefined, style: RangedStyle): number {
  return Math.min(MAX_RANGED_REACH, Math.max(1, (bowRange ?? 7) + (style === "longrange" ? 2 : 0)));
}

/** Where a shot arrow goes: broken, or on the ground under the target. */
export function arrowFate(rng: Rng): "broken" | "dropped" {
  return chance(rng, ARROW_BREAK_CHANCE) ? "broken" : "dropped";
}

/**
 * Experience for `damage` dealt with a ranged style: 4 per damage to ranged (accurate, rapid), or 2
 * to ranged and 2 to defence (longrange); 4/3 to constitution. Rounded to tenths; nothing for 0.
 */
export function rangedXpForDamage(damage: number, style: RangedStyle): Partial<Record<"ranged" | "defense" | "constitution", number>> {
  if (!(damage > 0)) return {};
  const tenths = (xp: number) => Math.round(xp * 10) / 10;
  const out: Partial<Record<"ranged" | "defense" | "constitution", number>> =
    style === "longrange" ? { ranged: tenths(damage * 2), defense: tenths(damage * 2) } : { ranged: tenths(damage * 4) };
  out.constitution = tenths((damage * 4) / 3);
  return out;
}
