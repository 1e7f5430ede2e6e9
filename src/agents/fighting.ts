import { isStaff } from "../game/attacks.js";
import { isBow } from "../game/ranged.js";
import type { SpellDef } from "../manifests/combat.js";
import type { WorldKnowledge } from "../game/world/knowledge.js";
import type { Order } from "./mind.js";
import { unlockedCountOf } from "./pack.js";
import type { SelfState } from "./view.js";

/**
 * How an agent gets ready to fight, pure: the style its gear allows (a bow with arrows that fit it,
 * a staff or runes for a spell it can cast, else melee), the arrows it carries put on, and a prayer
 * turned on while it has points. `prepare` returns the orders still needed before the next attack
 * (none: ready) and how to attack.
 */

export interface FightPlan {
  /** Orders to send first (equip arrows, autocast, a prayer); empty when ready. */
  orders: Order[];
  kind: "melee" | "ranged" | "magic";
  /** A spell to cast each attack (no staff to autocast it). */
  castSpell?: string;
}

const levelOf = (self: SelfState, skill: string) => self.skills[skill]?.level ?? 1;

/** Arrows the agent may shoot from this bow (by the ammunition data; any worn arrows in a world without it). */
function arrowFits(k: WorldKnowledge, bowId: string, arrowId: string, self: SelfState): boolean {
  const ammo = k.data.ammunition.get(arrowId);
  if (!ammo) return k.data.ammunition.size === 0 && k.data.items.get(arrowId)?.equipSlot?.toLowerCase() === "arrows";
  const bow = k.data.items.get(bowId);
  const tier = bow?.requirements?.skills?.ranged ?? 1;
  return ammo.requiredBowTier <= tier && ammo.requiredRangedLevel <= levelOf(self, "ranged");
}

/** The strongest spell it can cast now with its runes (a staff's runes free). */
export function castableSpell(k: WorldKnowledge, self: SelfState, staffRunes: readonly string[]): SpellDef | undefined {
  let best: SpellDef | undefined;
  for (const spell of k.data.spells.values()) {
    if (spell.level > levelOf(self, "magic")) continue;
    if (!spell.runes.every((r) => staffRunes.includes(r.runeId) || unlockedCountOf(self, r.runeId) >= r.quantity)) continue;
    if (!best || spell.baseMaxHit > best.baseMaxHit) best = spell;
  }
  return best;
}

/** The best prayer of each bonus it may turn on (the highest level per bonus), not yet on. */
function prayersToUse(k: WorldKnowledge, self: SelfState, bonusFor: string[]): string[] {
  if (!self.prayer || self.prayer.points <= 0) return [];
  const out: string[] = [];
  for (const bonus of ["defenseMultiplier", ...bonusFor]) {
    let best: { id: string; level: number } | undefined;
    for (const p of k.data.prayers.values()) {
      if (p.level > levelOf(self, "prayer") || typeof p.bonuses[bonus] !== "number") continue;
      if (!best || p.level > best.level) best = { id: p.id, level: p.level };
    }
    if (best && !self.prayer.active.includes(best.id) && !out.includes(best.id)) out.push(best.id);
  }
  return out;
}

export function prepareToFight(k: WorldKnowledge, self: SelfState): FightPlan {
  const weaponId = self.equipment.weapon?.itemId;
  const weapon = weaponId ? k.data.items.get(weaponId) : undefined;
  const orders: Order[] = [];
  let plan: FightPlan;
  if (weapon && isBow(weapon)) {
    const worn = self.equipment.arrows?.itemId;
    if (!worn || !arrowFits(k, weapon.id, worn, self)) {
      const arrows = self.inventory.find((s) => !s.locked && arrowFits(k, weapon.id, s.itemId, self));
      // No arrows to shoot: fight with bare hands rather than not at all.
      orders.push(
        arrows
          ? { type: "inventory:use", data: { slot: arrows.slot, action: "equip" } }
          : { type: "inventory:use", data: { slot: 0, action: "unequip", targetId: "weapon" } },
      );
      return { orders, kind: arrows ? "ranged" : "melee" };
    }
    plan = { orders, kind: "ranged" };
  } else if (isStaff(weapon)) {
    const spell = castableSpell(k, self, weapon?.providesRunes ?? []);
    if (spell && self.autocast !== spell.id) orders.push({ type: "combat:autocast", data: { spellId: spell.id } });
    if (!spell && self.autocast) orders.push({ type: "combat:autocast", data: { spellId: null } });
    plan = { orders, kind: spell ? "magic" : "melee" };
  } else {
    const spell = castableSpell(k, self, []);
    plan = spell && !weapon ? { orders, kind: "magic", castSpell: spell.id } : { orders, kind: "melee" };
  }
  const boost =
    plan.kind === "ranged"
      ? ["rangedMultiplier", "rangedAttackMultiplier"]
      : plan.kind === "magic"
        ? ["magicMultiplier", "magicAttackMultiplier"]
        : ["attackMultiplier", "strengthMultiplier"];
  for (const prayerId of prayersToUse(k, self, boost)) orders.push({ type: "prayer:toggle", data: { prayerId, on: true } });
  return plan;
}
