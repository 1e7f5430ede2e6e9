/**
 * Worn equipment: equipping from and unequipping to the inventory, level requirements,
 * two-handed weapons, ammunition stacks, summed bonuses and weapon speed.
 */
import type { ItemDef } from "../manifests/gameData.js";
import { EQUIPMENT_SLOTS, GameError, MAX_STACK, type Equipment, type EquipmentSlot, type Inventory, type ItemStack } from "./types.js";
import { addItemAll, assertSlot, copyInventory, itemDef, type ItemIndex } from "./inventory.js";
import { TICK_MS } from "../protocol/vocabulary.js";

/** Unarmed attacks (and weapons without a speed) take this many ticks. */
export const UNARMED_SPEED_TICKS = 4;

/** The manifests' slot names, lower case, to the server's slots. */
const SLOT_ALIASES: Record<string, EquipmentSlot> = {
  weapon: "weapon",
  mainhand: "weapon",
  "main-hand": "weapon",
  main_hand: "weapon",
  shield: "shield",
  offhand: "shield",
  "off-hand": "shield",
  off_hand: "shield",
  helmet: "helmet",
  head: "helmet",
  helm: "helmet",
  hat: "helmet",
  body: "body",
  chest: "body",
  torso: "body",
  legs: "legs",
  leg: "legs",
  boots: "boots",
  feet: "boots",
  gloves: "gloves",
  hands: "gloves",
  cape: "cape",
  back: "cape",
  amulet: "amulet",
  neck: "amulet",
  ring: "ring",
  arrows: "arrows",
  ammo: "arrows",
  ammunition: "arrows",
  quiver: "arrows",
};
const TWO_HANDED = new Set(["2h", "twohanded", "two_handed", "two-handed"]);

/** Whether the item is a weapon that needs both hands (it also occupies the shield slot). */
export function isTwoHanded(def: ItemDef): boolean {
  return typeof def.equipSlot === "string" && TWO_HANDED.has(def.equipSlot.trim().toLowerCase());
}

/** The slot an item is worn in, or undefined when it is not wearable. */
export function equipSlotOf(def: Pick<ItemDef, "equipSlot">): EquipmentSlot | undefined {
  if (typeof def.equipSlot !== "string") return undefined;
  const name = def.equipSlot.trim().toLowerCase();
  return TWO_HANDED.has(name) ? "weapon" : SLOT_ALIASES[name];
}

export function isEquipmentSlot(slot: unknown): slot is EquipmentSlot {
  return typeof slot === "string" && (EQUIPMENT_SLOTS as readonly string[]).includes(slot);
}

function copyEquipment(equipment: Equipment): Equipment {
  const out: Equipment = {};
  for (const slot of EQUIPMENT_SLOTS) {
    const s = equipment[slot];
    if (s) out[slot] = { itemId: s.itemId, quantity: s.quantity };
  }
  return out;
}

/**
 * Requirements come as `requirements.skills` ({attack: 10}); a skill the player has no level for
 * counts as level 1. The bare `requirements.level` names no skill and is not checked.
 */
export function meetsRequirements(def: ItemDef, levels: Readonly<Record<string, number | undefined>>): boolean {
  for (const [skill, needed] of Object.entries(def.requirements?.skills ?? {})) {
    if ((levels[skill] ?? 1) < needed) return false;
  }
  return true;
}

export interface EquipResult {
  inventory: Inventory;
  equipment: Equipment;
}

/**
 * Wear the item in inventory `slot`. Whatever it displaces goes back into the inventory: the
 * previously worn item into the freed slot, and for a two-handed weapon the shield too (or, when
 * equipping a shield, a worn two-handed weapon). INVENTORY_FULL when the displaced items do not
 * fit; nothing changes then. Stackable ammunition of the same id merges into the arrows slot.
 */
export function equip(inv: Inventory, equipment: Equipment, slot: number, items: ItemIndex, levels: Readonly<Record<string, number | undefined>>): EquipResult {
  assertSlot(slot);
  const stack = inv[slot];
  if (!stack) throw new GameError("EMPTY_SLOT", `slot ${slot} is empty`);
  const def = itemDef(stack.itemId, items);
  const target = equipSlotOf(def);
  if (!target) throw new GameError("NOT_EQUIPPABLE", `${def.name} cannot be worn`);
  if (!meetsRequirements(def, levels)) {
    const needs = Object.entries(def.requirements?.skills ?? {})
      .map(([s, l]) => `${s} ${l}`)
      .join(", ");
    throw new GameError("LEVEL_TOO_LOW", `${def.name} needs ${needs}`);
  }

  const worn = equipment[target];
  let outInv = copyInventory(inv);
  const outEq = copyEquipment(equipment);

  // More of the same ammunition: merge into the worn stack, what does not fit stays in the slot.
  if (worn && worn.itemId === stack.itemId && def.stackable) {
    const moved = Math.min(stack.quantity, MAX_STACK - worn.quantity);
    if (moved === 0) throw new GameError("STACK_FULL", `no room for more ${def.name}`);
    outEq[target] = { itemId: worn.itemId, quantity: worn.quantity + moved };
    outInv[slot] = moved === stack.quantity ? null : { itemId: stack.itemId, quantity: stack.quantity - moved };
    return { inventory: outInv, equipment: outEq };
  }

  const displaced: ItemStack[] = [];
  if (worn) displaced.push(worn);
  if (isTwoHanded(def) && equipment.shield) {
    displaced.push(equipment.shield);
    delete outEq.shield;
  }
  if (target === "shield" && equipment.weapon) {
    const weaponDef = items.get(equipment.weapon.itemId);
    if (weaponDef && isTwoHanded(weaponDef)) {
      displaced.push(equipment.weapon);
      delete outEq.weapon;
    }
  }

  outEq[target] = { itemId: stack.itemId, quantity: stack.quantity };
  outInv[slot] = null;
  const [first, ...rest] = displaced;
  if (first) outInv[slot] = { itemId: first.itemId, quantity: first.quantity };
  for (const d of rest) outInv = addItemAll(outInv, d.itemId, d.quantity, items).inventory;
  return { inventory: outInv, equipment: outEq };
}

/** Take off what is worn in `slot` into the inventory (INVENTORY_FULL: nothing changes). */
export function unequip(inv: Inventory, equipment: Equipment, slot: EquipmentSlot, items: ItemIndex): EquipResult {
  if (!isEquipmentSlot(slot)) throw new GameError("INVALID_SLOT", `no equipment slot named ${String(slot)}`);
  const worn = equipment[slot];
  if (!worn) throw new GameError("NOTHING_EQUIPPED", `nothing is worn in the ${slot} slot`);
  const { inventory } = addItemAll(inv, worn.itemId, worn.quantity, items);
  const outEq = copyEquipment(equipment);
  delete outEq[slot];
  return { inventory, equipment: outEq };
}

export interface Bonuses {
  /** Melee accuracy: per item the best of attack / attackStab / attackSlash / attackCrush. */
  attack: number;
  /** Melee strength: per item strength, or meleeStrength. */
  strength: number;
  /**
   * Defence: per item its single `defense` bonus when given, otherwise the mean of its
   * stab / slash / crush defences (the attacker's style is not known here). Rounded at the end.
   */
  defense: number;
  /** Ranged accuracy: per item attackRanged, or ranged. */
  ranged: number;
  rangedStrength: number;
  /** Magic accuracy: per item attackMagic, or magic. */
  magic: number;
  defenseRanged: number;
  defenseMagic: number;
  prayer: number;
}

/** Bonus names as the data spells them, folded: lower case, no separators, "defence" -> "defense". */
function foldKey(key: string): string {
  return key
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")
    .replace(/defence/g, "defense");
}

function folded(bonuses: Record<string, number> | undefined): Map<string, number> {
  const map = new Map<string, number>();
  for (const [k, v] of Object.entries(bonuses ?? {})) {
    if (typeof v === "number" && Number.isFinite(v)) map.set(foldKey(k), v);
  }
  return map;
}

function firstOf(b: Map<string, number>, keys: string[]): number {
  for (const k of keys) {
    const v = b.get(k);
    if (v !== undefined) return v;
  }
  return 0;
}

function bestOf(b: Map<string, number>, keys: string[]): number | undefined {
  const values = keys.map((k) => b.get(k)).filter((v): v is number => v !== undefined);
  return values.length ? Math.max(...values) : undefined;
}

/**
 * Sum the bonuses of everything worn. Names are matched case-insensitively and without
 * separators, so attackStab, attack_stab and ATTACK-STAB are the same; "defence" reads as "defense".
 * Items missing from `items` add nothing.
 */
export function equipmentBonuses(equipment: Equipment, items: ItemIndex): Bonuses {
  const total: Bonuses = { attack: 0, strength: 0, defense: 0, ranged: 0, rangedStrength: 0, magic: 0, defenseRanged: 0, defenseMagic: 0, prayer: 0 };
  for (const slot of EQUIPMENT_SLOTS) {
    const worn = equipment[slot];
    const def = worn ? items.get(worn.itemId) : undefined;
    if (!def) continue;
    const b = folded(def.bonuses);
    total.attack += bestOf(b, ["attack", "attackstab", "attackslash", "attackcrush"]) ?? 0;
    total.strength += firstOf(b, ["strength", "meleestrength", "strengthbonus"]);
    if (b.has("defense")) total.defense += b.get("defense")!;
    else {
      const styles = ["defensestab", "defenseslash", "defensecrush"].filter((k) => b.has(k)).map((k) => b.get(k)!);
      if (styles.length) total.defense += styles.reduce((a, v) => a + v, 0) / styles.length;
    }
    total.ranged += firstOf(b, ["attackranged", "ranged", "range", "rangedattack"]);
    total.rangedStrength += firstOf(b, ["rangedstrength", "rangestrength"]);
    total.magic += firstOf(b, ["attackmagic", "magic", "magicattack"]);
    total.defenseRanged += firstOf(b, ["defenseranged", "defenserange"]);
    total.defenseMagic += firstOf(b, ["defensemagic"]);
    total.prayer += firstOf(b, ["prayer"]);
  }
  total.defense = Math.round(total.defense);
  return total;
}

/**
 * The worn weapon's attack interval in ticks. The data gives ticks (small whole numbers);
 * values of 100 or more are read as milliseconds and fractional ones below 10 as seconds,
 * both converted at 600 ms a tick. Unarmed, unknown or missing: UNARMED_SPEED_TICKS.
 */
export function weaponSpeedTicks(equipment: Equipment, items: ItemIndex): number {
  const weapon = equipment.weapon;
  const speed = weapon ? items.get(weapon.itemId)?.attackSpeed : undefined;
  if (typeof speed !== "number" || !Number.isFinite(speed) || speed <= 0) return UNARMED_SPEED_TICKS;
  if (speed >= 100) return Math.max(1, Math.round(speed / TICK_MS));
  if (!Number.isInteger(speed) && speed < 10) return Math.max(1, Math.round((speed * 1000) / TICK_MS));
  return Math.max(1, Math.round(speed));
}
