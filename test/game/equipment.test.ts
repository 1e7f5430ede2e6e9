import assert from "node:assert/strict";
import path from "node:path";
import pino from "pino";
import { equip, equipmentBonuses, equipSlotOf, isTwoHanded, unequip, UNARMED_SPEED_TICKS, weaponSpeedTicks } from "../../src/game/equipment.js";
import { emptyInventory } from "../../src/game/inventory.js";
import { loadGameData } from "../../src/manifests/index.js";
import type { ItemDef } from "../../src/manifests/gameData.js";
import { MAX_STACK, type Equipment, type EquipmentSlot, type Inventory } from "../../src/game/types.js";
import { code, inv, item } from "./fixtures.js";

const ITEMS = new Map<string, ItemDef>(
  [
    item("bronze_sword", { equipSlot: "weapon", attackSpeed: 4, bonuses: { attack: 4, strength: 3, attackSlash: 4 } }),
    item("rune_sword", { equipSlot: "weapon", attackSpeed: 2400, bonuses: { attack_stab: 38, attack_slash: 26 }, requirements: { skills: { attack: 40 } } }),
    item("bronze_2h_sword", { equipSlot: "2h", attackSpeed: 7, bonuses: { attack: 9, strength: 10 } }),
    item("shortbow", { equipSlot: "two_handed", attackSpeed: 2.4, bonuses: { attackRanged: 8 } }),
    item("kiteshield", {
      equipSlot: "off-hand",
      bonuses: { defenseStab: 7, defenseSlash: 9, defenseCrush: 8, defenseMagic: -1, defenseRanged: 8, attackMagic: -8, attackRanged: -3 },
    }),
    item("full_helm", {
      equipSlot: "head",
      bonuses: { defence_stab: 4, defence_slash: 5, defence_crush: 3 },
      requirements: { skills: { defense: 5, attack: 1 } },
    }),
    item("platebody", { equipSlot: "chest", bonuses: { defense: 20 } }),
    item("boots", { equipSlot: "feet" }),
    item("gloves", { equipSlot: "hands", bonuses: { attackStab: 2, attackSlash: 3, attackCrush: 1 } }),
    item("amulet_of_power", { equipSlot: "neck", bonuses: { meleeStrength: 6, prayer: 1, attackMagic: 6, defenseMagic: 6 } }),
    item("bronze_arrow", { equipSlot: "ammo", stackable: true, bonuses: { rangedStrength: 7 } }),
    item("iron_arrow", { equipSlot: "ammunition", stackable: true, bonuses: { ranged_strength: 10 } }),
    item("logs"),
    item("coins", { stackable: true }),
  ].map((d) => [d.id, d]),
);
const LOW = { attack: 1, strength: 1, defense: 1 };
const HIGH = { attack: 60, strength: 60, defense: 60 };

const fullOfLogs = (): Inventory => emptyInventory().map(() => ({ itemId: "logs", quantity: 1 }));

describe("game/equipment", function () {
  it("maps the manifests' slot names", function () {
    const slotOf = (id: string) => equipSlotOf(ITEMS.get(id)!);
    const expected: Record<string, EquipmentSlot | undefined> = {
      bronze_sword: "weapon",
      bronze_2h_sword: "weapon",
      shortbow: "weapon",
      kiteshield: "shield",
      full_helm: "helmet",
      platebody: "body",
      boots: "boots",
      gloves: "gloves",
      amulet_of_power: "amulet",
      bronze_arrow: "arrows",
      logs: undefined,
    };
    for (const [id, slot] of Object.entries(expected)) assert.equal(slotOf(id), slot, id);
    assert.equal(equipSlotOf(item("x", { equipSlot: "torso" })), "body");
    assert.equal(equipSlotOf(item("x", { equipSlot: "Offhand" })), "shield");
    assert.equal(equipSlotOf(item("x", { equipSlot: "wings" })), undefined);
    assert.equal(isTwoHanded(ITEMS.get("bronze_2h_sword")!), true);
    assert.equal(isTwoHanded(ITEMS.get("shortbow")!), true);
    assert.equal(isTwoHanded(ITEMS.get("bronze_sword")!), false);
  });

  it("equips into an empty slot", function () {
    const i = inv({ 3: ["bronze_sword", 1] });
    const e: Equipment = {};
    const [ic, ec] = [structuredClone(i), structuredClone(e)];
    const r = equip(i, e, 3, ITEMS, LOW);
    assert.deepEqual(r.equipment, { weapon: { itemId: "bronze_sword", quantity: 1 } });
    assert.equal(r.inventory[3], null);
    assert.deepEqual([i, e], [ic, ec], "inputs unchanged");
  });

  it("swaps with the worn item, which goes into the freed slot", function () {
    const i = inv({ 0: ["logs", 1], 5: ["rune_sword", 1] });
    const r = equip(i, { weapon: { itemId: "bronze_sword", quantity: 1 } }, 5, ITEMS, HIGH);
    assert.deepEqual(r.equipment.weapon, { itemId: "rune_sword", quantity: 1 });
    assert.deepEqual(r.inventory[5], { itemId: "bronze_sword", quantity: 1 });
    assert.deepEqual(r.inventory[1], null);
  });

  it("a swap works with a full inventory", function () {
    const i = fullOfLogs();
    i[27] = { itemId: "full_helm", quantity: 1 };
    const r = equip(i, { helmet: { itemId: "full_helm", quantity: 1 } }, 27, ITEMS, HIGH);
    assert.deepEqual(r.inventory[27], { itemId: "full_helm", quantity: 1 });
  });

  it("refuses items whose requirements are not met", function () {
    const i = inv({ 0: ["rune_sword", 1], 1: ["full_helm", 1] });
    const e: Equipment = {};
    const [ic, ec] = [structuredClone(i), structuredClone(e)];
    assert.throws(() => equip(i, e, 0, ITEMS, { attack: 39 }), code("LEVEL_TOO_LOW"));
    assert.throws(() => equip(i, e, 0, ITEMS, {}), code("LEVEL_TOO_LOW"));
    assert.throws(() => equip(i, e, 1, ITEMS, { defense: 4, attack: 99 }), code("LEVEL_TOO_LOW"));
    assert.deepEqual([i, e], [ic, ec]);
    assert.deepEqual(equip(i, e, 0, ITEMS, { attack: 40 }).equipment.weapon, { itemId: "rune_sword", quantity: 1 });
    assert.deepEqual(equip(i, e, 1, ITEMS, { defense: 5 }).equipment.helmet, { itemId: "full_helm", quantity: 1 });
  });

  it("refuses what cannot be worn, empty slots, bad slots and unknown items", function () {
    const i = inv({ 0: ["logs", 1], 1: ["mystery", 1] });
    const e: Equipment = {};
    const [ic, ec] = [structuredClone(i), structuredClone(e)];
    assert.throws(() => equip(i, e, 0, ITEMS, HIGH), code("NOT_EQUIPPABLE"));
    assert.throws(() => equip(i, e, 1, ITEMS, HIGH), code("UNKNOWN_ITEM"));
    assert.throws(() => equip(i, e, 2, ITEMS, HIGH), code("EMPTY_SLOT"));
    for (const s of [-1, 28, 0.5, NaN, Infinity]) assert.throws(() => equip(i, e, s, ITEMS, HIGH), code("INVALID_SLOT"));
    assert.deepEqual([i, e], [ic, ec]);
  });

  it("a two-handed weapon takes off the shield too", function () {
    const i = inv({ 4: ["bronze_2h_sword", 1] });
    const e: Equipment = { weapon: { itemId: "bronze_sword", quantity: 1 }, shield: { itemId: "kiteshield", quantity: 1 } };
    const r = equip(i, e, 4, ITEMS, LOW);
    assert.deepEqual(r.equipment, { weapon: { itemId: "bronze_2h_sword", quantity: 1 } });
    assert.deepEqual(r.inventory[4], { itemId: "bronze_sword", quantity: 1 });
    assert.deepEqual(r.inventory[0], { itemId: "kiteshield", quantity: 1 });
    const onlyShield = equip(inv({ 4: ["shortbow", 1] }), { shield: { itemId: "kiteshield", quantity: 1 } }, 4, ITEMS, LOW);
    assert.deepEqual(onlyShield.equipment, { weapon: { itemId: "shortbow", quantity: 1 } });
    assert.deepEqual(onlyShield.inventory[4], { itemId: "kiteshield", quantity: 1 });
  });

  it("a two-handed weapon is refused when weapon and shield cannot both go back", function () {
    const i = fullOfLogs();
    i[10] = { itemId: "bronze_2h_sword", quantity: 1 };
    const e: Equipment = { weapon: { itemId: "bronze_sword", quantity: 1 }, shield: { itemId: "kiteshield", quantity: 1 } };
    const [ic, ec] = [structuredClone(i), structuredClone(e)];
    assert.throws(() => equip(i, e, 10, ITEMS, LOW), code("INVENTORY_FULL"));
    assert.deepEqual([i, e], [ic, ec]);
  });

  it("a shield takes off a worn two-handed weapon", function () {
    const r = equip(inv({ 2: ["kiteshield", 1] }), { weapon: { itemId: "bronze_2h_sword", quantity: 1 } }, 2, ITEMS, LOW);
    assert.deepEqual(r.equipment, { shield: { itemId: "kiteshield", quantity: 1 } });
    assert.deepEqual(r.inventory[2], { itemId: "bronze_2h_sword", quantity: 1 });
    const oneHanded = equip(inv({ 2: ["kiteshield", 1] }), { weapon: { itemId: "bronze_sword", quantity: 1 } }, 2, ITEMS, LOW);
    assert.deepEqual(oneHanded.equipment.weapon, { itemId: "bronze_sword", quantity: 1 });
    assert.equal(oneHanded.inventory[2], null);
  });

  it("ammunition merges into the worn stack of the same arrows and swaps other arrows", function () {
    const i = inv({ 0: ["bronze_arrow", 50], 1: ["iron_arrow", 20] });
    const e: Equipment = { arrows: { itemId: "bronze_arrow", quantity: 100 } };
    const merged = equip(i, e, 0, ITEMS, LOW);
    assert.deepEqual(merged.equipment.arrows, { itemId: "bronze_arrow", quantity: 150 });
    assert.equal(merged.inventory[0], null);
    const swapped = equip(i, e, 1, ITEMS, LOW);
    assert.deepEqual(swapped.equipment.arrows, { itemId: "iron_arrow", quantity: 20 });
    assert.deepEqual(swapped.inventory[1], { itemId: "bronze_arrow", quantity: 100 });
    const nearCap = equip(i, { arrows: { itemId: "bronze_arrow", quantity: MAX_STACK - 10 } }, 0, ITEMS, LOW);
    assert.deepEqual(nearCap.equipment.arrows, { itemId: "bronze_arrow", quantity: MAX_STACK });
    assert.deepEqual(nearCap.inventory[0], { itemId: "bronze_arrow", quantity: 40 });
    assert.throws(() => equip(i, { arrows: { itemId: "bronze_arrow", quantity: MAX_STACK } }, 0, ITEMS, LOW), code("STACK_FULL"));
  });

  it("unequips into the inventory; a full inventory refuses and changes nothing", function () {
    const e: Equipment = { weapon: { itemId: "bronze_sword", quantity: 1 }, arrows: { itemId: "bronze_arrow", quantity: 30 } };
    const i = inv({ 0: ["logs", 1], 1: ["bronze_arrow", 5] });
    const [ic, ec] = [structuredClone(i), structuredClone(e)];
    const r = unequip(i, e, "weapon", ITEMS);
    assert.deepEqual(r.equipment, { arrows: { itemId: "bronze_arrow", quantity: 30 } });
    assert.deepEqual(r.inventory[2], { itemId: "bronze_sword", quantity: 1 });
    const arrows = unequip(i, e, "arrows", ITEMS);
    assert.deepEqual(arrows.inventory[1], { itemId: "bronze_arrow", quantity: 35 });
    assert.deepEqual(arrows.equipment, { weapon: { itemId: "bronze_sword", quantity: 1 } });
    assert.deepEqual([i, e], [ic, ec]);

    const f = fullOfLogs();
    const fc = structuredClone(f);
    assert.throws(() => unequip(f, e, "weapon", ITEMS), code("INVENTORY_FULL"));
    assert.deepEqual([f, e], [fc, ec]);
    assert.throws(() => unequip(i, e, "helmet", ITEMS), code("NOTHING_EQUIPPED"));
    assert.throws(() => unequip(i, e, "hat" as EquipmentSlot, ITEMS), code("INVALID_SLOT"));
  });

  it("equipmentBonuses sums worn items and normalises bonus names", function () {
    const e: Equipment = {
      weapon: { itemId: "bronze_sword", quantity: 1 }, // attack 4 (best of attack 4, slash 4), strength 3
      shield: { itemId: "kiteshield", quantity: 1 }, // defense mean(7, 9, 8) = 8, ranged -3, magic -8
      helmet: { itemId: "full_helm", quantity: 1 }, // defense mean(4, 5, 3) = 4
      body: { itemId: "platebody", quantity: 1 }, // defense 20
      gloves: { itemId: "gloves", quantity: 1 }, // attack best of 2, 3, 1 = 3
      amulet: { itemId: "amulet_of_power", quantity: 1 }, // strength 6, prayer 1, magic 6, defenseMagic 6
      arrows: { itemId: "bronze_arrow", quantity: 10 }, // rangedStrength 7
      boots: { itemId: "unknown_boots", quantity: 1 }, // unknown: nothing
    };
    assert.deepEqual(equipmentBonuses(e, ITEMS), {
      attack: 7,
      strength: 9,
      defense: 32,
      ranged: -3,
      rangedStrength: 7,
      magic: -2,
      defenseRanged: 8,
      defenseMagic: 5,
      prayer: 1,
    });
    assert.deepEqual(equipmentBonuses({}, ITEMS), {
      attack: 0,
      strength: 0,
      defense: 0,
      ranged: 0,
      rangedStrength: 0,
      magic: 0,
      defenseRanged: 0,
      defenseMagic: 0,
      prayer: 0,
    });
    const rune = equipmentBonuses({ weapon: { itemId: "rune_sword", quantity: 1 }, arrows: { itemId: "iron_arrow", quantity: 1 } }, ITEMS);
    assert.equal(rune.attack, 38, "snake_case style bonuses");
    assert.equal(rune.rangedStrength, 10);
    assert.equal(equipmentBonuses({ weapon: { itemId: "shortbow", quantity: 1 } }, ITEMS).ranged, 8);
  });

  it("weaponSpeedTicks reads ticks, milliseconds or seconds; unarmed is 4", function () {
    const w = (itemId: string): Equipment => ({ weapon: { itemId, quantity: 1 } });
    assert.equal(UNARMED_SPEED_TICKS, 4);
    assert.equal(weaponSpeedTicks({}, ITEMS), 4);
    assert.equal(weaponSpeedTicks(w("bronze_sword"), ITEMS), 4);
    assert.equal(weaponSpeedTicks(w("bronze_2h_sword"), ITEMS), 7);
    assert.equal(weaponSpeedTicks(w("rune_sword"), ITEMS), 4, "2400 ms");
    assert.equal(weaponSpeedTicks(w("shortbow"), ITEMS), 4, "2.4 s");
    assert.equal(weaponSpeedTicks(w("logs"), ITEMS), 4, "no speed given");
    assert.equal(weaponSpeedTicks(w("nothing_known"), ITEMS), 4);
  });

  it("works on the shipped world's items", async function () {
    const data = await loadGameData(path.resolve("world/manifests"), pino({ level: "silent" }));
    const items = data.items;
    const e: Equipment = {
      weapon: { itemId: "bronze_shortsword", quantity: 1 },
      shield: { itemId: "bronze_kiteshield", quantity: 1 },
      helmet: { itemId: "bronze_full_helm", quantity: 1 },
      body: { itemId: "bronze_platebody", quantity: 1 },
      legs: { itemId: "bronze_platelegs", quantity: 1 },
    };
    // defense: kite mean(6,7,5)=6 + helm mean(4,5,3)=4 + body mean(12,13,11)=12 + legs mean(7,8,6)=7 + sword 0
    const b = equipmentBonuses(e, items);
    assert.deepEqual([b.attack, b.strength, b.defense, b.ranged, b.magic], [5, 4, 29, -23, -55]);
    assert.equal(weaponSpeedTicks(e, items), 4);
    assert.equal(weaponSpeedTicks({ weapon: { itemId: "bronze_longsword", quantity: 1 } }, items), 5);
    const i = inv({ 0: ["steel_platebody", 1] });
    assert.throws(() => equip(i, {}, 0, items, { defense: 4 }), code("LEVEL_TOO_LOW"));
    assert.deepEqual(equip(i, {}, 0, items, { defense: 5 }).equipment.body, { itemId: "steel_platebody", quantity: 1 });
  });
});
