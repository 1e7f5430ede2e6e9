import { heldOf, noteChange } from "../ledger.js";
/**
 * Prayer in the world: turning prayers on and off (`prayer:toggle`), their drain every tick against
 * the worn prayer bonus, praying at an altar to restore the points (`player:action` `pray`), and
 * burying bones for prayer experience (`inventory:use` `bury`). The rules are src/game/prayer.ts's.
 */
import { equipmentBonuses } from "../equipment.js";
import { removeFromSlot } from "../inventory.js";
import { activatePrayer, drainTick } from "../prayer.js";
import { GameError } from "../types.js";
import { adjacent, walkTowards } from "./commands.js";
import type { PlayerEntity } from "./entities.js";
import { questDeed } from "./questing.js";
import { grantXp } from "./xp.js";
import type { World } from "./World.js";
import { playerOf } from "./worldCore.js";

/** Station types a player prays at (stations.json). */
export const PRAYER_ALTAR_TYPES: readonly string[] = ["altar"];

/** Turn a prayer on (those it conflicts with go off) or off. */
export function togglePrayer(world: World, id: string, prayerId: string, on: boolean) {
  const p = playerOf(world, id);
  if (on) world.ruledFights?.assertAllowed(p.id, "prayer");
  if (on) activatePrayer(p.prayer, world.data.prayers, prayerId, p.levels.prayer);
  else if (!p.prayer.active.delete(prayerId)) {
    if (!world.data.prayers.has(prayerId)) throw new GameError("UNKNOWN_PRAYER", `There is no prayer called ${prayerId}`);
    return;
  }
  world.touchPlayer(p);
}

/** One tick of drain for a player with prayers on. */
export function drainPrayers(world: World, p: PlayerEntity) {
  if (p.prayer.active.size === 0) return;
  const lost = drainTick(p.prayer, world.data.prayers, equipmentBonuses(p.equipment, world.data.items).prayer);
  if (lost === 0) return;
  world.touchPlayer(p);
  if (p.prayer.points === 0) {
    world.events.push({ kind: "notice", playerId: p.id, code: "NO_PRAYER_POINTS", message: "You have run out of prayer points; recharge at an altar" });
  }
}

/** Walk to an altar to pray there. */
export function startPraying(world: World, id: string, stationId: string) {
  const p = playerOf(world, id);
  const altar = world.stations.get(stationId);
  if (!altar || !PRAYER_ALTAR_TYPES.includes(altar.type)) throw new GameError("UNKNOWN_TARGET", "There is no altar to pray at there");
  walkTowards(world, p, altar.tile);
  p.action = { type: "pray", stationId };
  world.markChanged("player", p.id);
}

export function tickPraying(world: World, p: PlayerEntity) {
  const action = p.action as Extract<PlayerEntity["action"], { type: "pray" }>;
  const altar = world.stations.get(action.stationId)!;
  if (p.path.length > 0) return;
  p.action = null;
  world.markChanged("player", p.id);
  if (!adjacent(p.tile, altar.tile)) throw new GameError("TOO_FAR", "You can't reach the altar");
  p.prayer.points = p.levels.prayer;
  p.prayer.drain = 0;
  world.touchPlayer(p);
  questDeed(world, p, { type: "interact", target: altar.type, count: 1 });
  world.events.push({ kind: "notice", playerId: p.id, code: "PRAYED", message: `You pray at the ${altar.name.toLowerCase()}. Your prayer points are restored.` });
}

/** Bury the bones in a slot: one bone, its prayer experience. */
export function buryBones(world: World, p: PlayerEntity, slot: number) {
  const held = p.inventory[slot]!;
  const def = world.data.items.get(held.itemId)!;
  if (!def.prayerXp) throw new GameError("NOT_BURIABLE", `You can't bury the ${def.name.toLowerCase()}`);
  const before = heldOf(p);
  p.inventory = removeFromSlot(p.inventory, slot, 1).inventory;
  noteChange(p, before, "consumed", "bury");
  world.touchPlayer(p);
  grantXp(world, p, "prayer", def.prayerXp);
  questDeed(world, p, { type: "interact", target: held.itemId, count: 1 });
  world.events.push({ kind: "notice", playerId: p.id, code: "BURIED", message: `You bury the ${def.name.toLowerCase()}.` });
}
