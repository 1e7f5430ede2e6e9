import { heldOf, noteChange } from "../ledger.js";
import { eat } from "../consumables.js";
import { cook } from "../cooking.js";
import { equip, isEquipmentSlot, unequip } from "../equipment.js";
import { FIRE_DURATION_TICKS, lightFire } from "../firemaking.js";
import { assertSlot } from "../inventory.js";
import { maxHealth } from "../skills.js";
import { GameError, type SkillName } from "../types.js";
import { adjacent, dropItem, itemHolderOf } from "./commands.js";
import type { PlayerEntity } from "./entities.js";
import { isStaff, styleAfterSwitch } from "../attacks.js";
import { weaponOf } from "./players.js";
import { buryBones } from "./praying.js";
import { questDeed, rubLamp } from "./questing.js";
import { grantXp } from "./xp.js";
import type { World } from "./World.js";

export interface UseItem {
  slot: number;
  targetSlot?: number;
  targetId?: string;
  action?: "use" | "eat" | "equip" | "unequip" | "drop" | "cook" | "light" | "rub" | "bury";
  quantity?: number;
  skill?: SkillName;
}

/**
 * `inventory:use`: eat food, wear or remove equipment, drop, light logs with a tinderbox, cook
 * raw food on a fire or range, rub an experience lamp, bury bones. Without an action, the item's
 * own use is chosen (food is eaten, wearables are worn, a lamp is rubbed, bones are buried, an item
 * on another item or on a fire combines).
 */
export function useItem(world: World, id: string, u: UseItem) {
  const p = itemHolderOf(world, id);
  if (u.action === "unequip") return unequipSlot(world, p, u.targetId);
  assertSlot(u.slot);
  if (p.lockedSlots.has(u.slot) || (u.targetSlot !== undefined && p.lockedSlots.has(u.targetSlot))) {
    throw new GameError("ITEM_LOCKED", "That item is offered in a trade");
  }
  const held = p.inventory[u.slot];
  if (!held) throw new GameError("EMPTY_SLOT", "That slot is empty");
  const def = world.data.items.get(held.itemId);
  if (!def) throw new GameError("UNKNOWN_ITEM", "You can't use that");

  const action = u.action && u.action !== "use" ? u.action : u.targetSlot !== undefined ? "light" : u.targetId ? "cook" : def.healAmount ? "eat" : def.equipSlot ? "equip" : def.lampXp ? "rub" : def.prayerXp ? "bury" : undefined;
  switch (action) {
    case "eat": {
      world.ruledFights?.assertAllowed(p.id, "food");
      const r = eat(p.inventory, u.slot, p.health, maxHealth(p.levels.constitution), world.data.items);
      const before = heldOf(p);
      p.inventory = r.inventory;
      noteChange(p, before, "consumed", "eat");
      p.health = r.health;
      world.touchPlayer(p, true);
      world.events.push({ kind: "notice", playerId: p.id, code: "ATE", message: `You eat the ${def.name.toLowerCase()}. It heals ${r.healed}.` });
      return;
    }
    case "equip": {
      const r = equip(p.inventory, p.equipment, u.slot, world.data.items, p.levels);
      p.inventory = r.inventory;
      p.equipment = r.equipment;
      weaponChanged(world, p);
      world.touchPlayer(p, true);
      return;
    }
    case "drop":
      return dropItem(world, p.id, u.slot, u.quantity);
    case "light":
      return light(world, p, u.slot, u.targetSlot);
    case "cook":
      return cookOn(world, p, u.slot, u.targetId);
    case "rub":
      return rubLamp(world, p, u.slot, u.skill);
    case "bury":
      return buryBones(world, p, u.slot);
    default:
      throw new GameError("NOTHING_HAPPENS", "Nothing interesting happens");
  }
}

function unequipSlot(world: World, p: PlayerEntity, slot: string | undefined) {
  if (!isEquipmentSlot(slot)) throw new GameError("INVALID_SLOT", "Name an equipment slot to remove");
  const r = unequip(p.inventory, p.equipment, slot, world.data.items);
  world.ruledFights?.assertRoomAfter(p.id, r.inventory);
  p.inventory = r.inventory;
  p.equipment = r.equipment;
  weaponChanged(world, p);
  world.touchPlayer(p, true);
}

/** The style follows the weapon (kept when the new one offers it), and only a staff autocasts. */
function weaponChanged(world: World, p: PlayerEntity) {
  const weapon = weaponOf(world, p.equipment);
  p.combatStyle = styleAfterSwitch(weapon, p.combatStyle);
  if (!isStaff(weapon)) p.autocast = null;
}

function light(world: World, p: PlayerEntity, slot: number, targetSlot: number | undefined) {
  if (targetSlot === undefined) throw new GameError("NOTHING_HAPPENS", "Use the tinderbox on some logs");
  assertSlot(targetSlot);
  for (const r of world.resources.values()) {
    if (r.tile.x === p.tile.x && r.tile.z === p.tile.z) throw new GameError("CANNOT_LIGHT_HERE", "You can't light a fire here");
  }
  const r = lightFire(p.inventory, slot, targetSlot, p.levels.firemaking, world.data.recipes.firemaking ?? [], world.data.items, world.rng);
  const before = heldOf(p);
  p.inventory = r.inventory;
  noteChange(p, before, "consumed", "fire");
  world.touchPlayer(p);
  if (!r.lit) {
    world.events.push({ kind: "notice", playerId: p.id, code: "FIRE_FAILED", message: "You fail to light a fire." });
    return;
  }
  const fireId = `fire:${world.newId()}`;
  world.resources.set(fireId, { id: fireId, resourceId: "fire", skill: "firemaking", name: "Fire", tile: { ...p.tile }, depleted: false, respawnAtTick: null, expiresAtTick: world.tick + FIRE_DURATION_TICKS });
  world.place("resource", fireId, p.tile);
  grantXp(world, p, "firemaking", r.xp);
  questDeed(world, p, { type: "interact", target: "fire", count: 1 });
}

function cookOn(world: World, p: PlayerEntity, slot: number, targetId: string | undefined) {
  let station: "fire" | "range";
  if (targetId === "range") {
    if (!world.rangeTiles.some((t) => adjacent(t, p.tile))) throw new GameError("NOT_NEAR_RANGE", "You need to stand next to a range");
    station = "range";
  } else {
    const fire = targetId ? world.resources.get(targetId) : undefined;
    if (!fire || fire.skill !== "firemaking") throw new GameError("UNKNOWN_TARGET", "Cook it on a fire or a range");
    if (!adjacent(fire.tile, p.tile)) throw new GameError("TOO_FAR", "Stand next to the fire");
    station = "fire";
  }
  const r = cook(p.inventory, slot, p.levels.cooking, station, world.data.recipes.cooking ?? [], world.data.items, world.rng);
  const before = heldOf(p);
  p.inventory = r.inventory;
  noteChange(p, before, "cooked", station);
  world.touchPlayer(p);
  if (r.cooked) {
    grantXp(world, p, "cooking", r.xp);
    if (r.itemId) questDeed(world, p, { type: "interact", target: r.itemId, count: 1 });
  } else world.events.push({ kind: "notice", playerId: p.id, code: "BURNT", message: "You accidentally burn it." });
}
