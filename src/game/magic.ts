/**
 * Magic combat, pure (combat-spells.json, runes.json), with the old-school rules the community
 * documents:
 *
 *   a cast needs the spell's magic level and its runes; an elemental staff (an item whose data names
 *   the rune it provides) stands in for every rune of its element
 *   effective magic  = boosted magic level + 8 (+3 accurate, +1 longrange: defensive casting)
 *   attack roll      = effMagic * (magicAttackBonus + 64)
 *   max hit          = the spell's base max hit, raised by the equipment's magic damage bonus (percent)
 *   xp               = the spell's base xp per cast (a splash too), plus 2 per damage to magic, and
 *                      4/3 per damage to constitution
 */
import type { SpellDef } from "../manifests/combat.js";
import { effectiveLevel } from "./combat.js";
import { countItem } from "./inventory.js";
import { GameError, type Inventory } from "./types.js";

/** The runes a cast takes from the pack: the spell's, less those an equipped staff provides. */
export function runesNeeded(spell: SpellDef, staffProvides: readonly string[]): Array<{ runeId: string; quantity: number }> {
  return spell.runes.filter((r) => !staffProvides.includes(r.runeId));
}

/** The spell may be cast now: the level (LEVEL_TOO_LOW) and the runes in the pack (NO_RUNES, naming the first short). */
export function checkCast(spell: SpellDef, magicLevel: number, pack: Inventory, staffProvides: readonly string[]): Array<{ runeId: string; quantity: number }> {
  if (magicLevel < spell.level) throw new GameError("LEVEL_TOO_LOW", `You need level ${spell.level} magic to cast ${spell.name}`);
  const needed = runesNeeded(spell, staffProvides);
  for (const r of needed) {
    const have = countItem(pack, r.runeId);
    if (have < r.quantity) throw new GameError("NO_RUNES", `You need ${r.quantity} x ${r.runeId.replace(/_/g, " ")} to cast ${spell.name} (you have ${have})`);
  }
  return needed;
}

export function magicAttackRoll(magicLevel: number, magicAttackBonus: number, style: "accurate" | "longrange" | "autocast" = "autocast"): number {
  const bonus = style === "accurate" ? 3 : style === "longrange" ? 1 : 0;
  return Math.max(0, effectiveLevel(magicLevel, bonus) * (magicAttackBonus + 64));
}

/** The spell's max hit, raised by the equipment's magic damage bonus in percent (floored). */
export function spellMaxHit(spell: SpellDef, magicDamagePercent = 0): number {
  return Math.floor(spell.baseMaxHit * (1 + Math.max(0, magicDamagePercent) / 100));
}

/** Experience for one cast that dealt `damage` (0: a splash, or a hit of 0: the base xp alone). */
export function magicXpForCast(spell: SpellDef, damage: number): { magic: number; constitution?: number } {
  const tenths = (xp: number) => Math.round(xp * 10) / 10;
  const hit = Math.max(0, damage);
  return hit > 0 ? { magic: tenths(spell.baseXp + 2 * hit), constitution: tenths((hit * 4) / 3) } : { magic: tenths(spell.baseXp) };
}
