import { heldOf, noteChange } from "../ledger.js";
import { canGather, gatherCycle } from "../gathering.js";
import { addItem, addItemAll } from "../inventory.js";
import { stepAlong, tilesPerTick } from "../movement.js";
import { GameError } from "../types.js";
import { adjacent, gatherOptions } from "./commands.js";
import type { PlayerAction, PlayerEntity } from "./entities.js";
import { tickAttack } from "./fighting.js";
import { drainPrayers, tickPraying } from "./praying.js";
import { canSeeGroundItem, reclaimDeathPile } from "./deathPiles.js";
import { tickMaking } from "./making.js";
import { questDeed } from "./questing.js";
import { tickConversations, tickTalk } from "./talk.js";
import { grantXp } from "./xp.js";
import type { World } from "./World.js";
import { chunkKey } from "./worldCore.js";

/**
 * What a tick does for each kind of action a player carries on with: one entry per kind of
 * PlayerAction (a mapped type), so a kind added without its tick does not compile.
 */
const ACTIONS: { [K in PlayerAction["type"]]: (world: World, p: PlayerEntity) => void } = {
  gather: (world, p) => gather(world, p),
  attack: tickAttack,
  pray: tickPraying,
  pickup: (world, p) => pickup(world, p),
  talk: tickTalk,
  make: tickMaking,
  feature: (world, p) => {
    const action = p.action as Extract<PlayerAction, { type: "feature" }>;
    const run = world.featureActions.get(action.feature);
    if (!run) return endAction(world, p, "CONTENT_CHANGED", "That can no longer be done");
    run(world, p, action);
  },
};

/** One tick of every player: the features' steps, the walk, then the current action. */
export function tickPlayers(world: World) {
  for (const p of world.players.values()) {
    if (p.health <= 0) continue;
    for (const step of world.playerTicks) step(world, p);
    // Held in place (a stun): no step and no action until it ends; a fight fought back resumes then.
    const held = world.heldBy(p) !== undefined;
    if (p.path.length > 0 && !held) walk(world, p);
    tickConversations(world, p);
    drainPrayers(world, p);
    // A trade or store deal being committed freezes the inventory: the action carries on once it is done.
    if (!p.action || p.inventoryFrozen || held) continue;
    try {
      ACTIONS[p.action.type](world, p);
    } catch (err) {
      if (!(err instanceof GameError)) throw err;
      endAction(world, p, err.code, err.message);
    }
  }
}

function walk(world: World, p: PlayerEntity) {
  const step = stepAlong(p.path, tilesPerTick(p.running), p.tile);
  p.tile = step.position;
  p.path = step.remaining;
  world.place("player", p.id, p.tile);
  p.dirty = true;
  // Arrived: the owner's private state (position, the bank when in reach) is refreshed once.
  if (p.path.length === 0) p.privateDirty = true;
}

export function endAction(world: World, p: PlayerEntity, code: string, message: string) {
  p.action = null;
  p.path = [];
  world.markChanged("player", p.id);
  world.touchPlayer(p);
  world.events.push({ kind: "actionFailed", playerId: p.id, code, message });
}

function gather(world: World, p: PlayerEntity) {
  const action = p.action as Extract<PlayerEntity["action"], { type: "gather" }>;
  const node = world.resources.get(action.targetId);
  if (!node || node.depleted) return endAction(world, p, "DEPLETED", "There is nothing left to gather");
  if (p.path.length > 0) return;
  if (!adjacent(p.tile, node.tile)) return endAction(world, p, "TOO_FAR", "You can't reach that");
  if (world.tick < action.nextTick) return;
  const def = world.data.gathering[node.skill as "woodcutting" | "mining" | "fishing"].get(node.resourceId)!;
  const check = canGather(def, p.levels[def.skill], p.inventory, world.data.items, gatherOptions(world, p));
  if (!check.ok) return endAction(world, p, check.code, check.message);
  const baitSlot = def.secondaryRequired ? p.inventory.findIndex((s, i) => s?.itemId === def.secondaryRequired && !p.lockedSlots.has(i)) : -1;
  if (def.secondaryRequired && baitSlot < 0) return endAction(world, p, "ITEM_LOCKED", "Your bait is offered in a trade");
  action.nextTick = world.tick + def.cycleTicks;
  const cycle = gatherCycle(world.rng, def, p.levels[def.skill]);
  if (!cycle.success || !cycle.yield) return;
  const got = cycle.yield;
  const before = heldOf(p);
  p.inventory = addItemAll(p.inventory, got.itemId, got.quantity, world.data.items).inventory;
  questDeed(world, p, { type: "gather", target: got.itemId, count: got.quantity });
  if (baitSlot >= 0) {
    // One bait per catch, never from a slot offered in a trade.
    const bait = p.inventory[baitSlot]!;
    p.inventory[baitSlot] = bait.quantity > 1 ? { ...bait, quantity: bait.quantity - 1 } : null;
  }
  noteChange(p, before, "gathered", node.id);
  world.touchPlayer(p);
  grantXp(world, p, def.skill, got.xp);
  if (cycle.depleted) {
    node.depleted = true;
    node.respawnAtTick = world.tick + Math.max(1, def.respawnTicks);
    world.markChanged("resource", node.id);
    world.dirtyChunks.add(chunkKey(node.tile));
    p.action = null;
    world.markChanged("player", p.id);
  }
}

function pickup(world: World, p: PlayerEntity) {
  const action = p.action as Extract<PlayerEntity["action"], { type: "pickup" }>;
  const item = world.groundItems.get(action.targetId);
  if (!item || !canSeeGroundItem(item, p.id, world.tick)) return endAction(world, p, "GONE", "The item is gone");
  if (p.path.length > 0) return;
  if (p.tile.x !== item.tile.x || p.tile.z !== item.tile.z) return endAction(world, p, "TOO_FAR", "You can't reach that");
  p.action = null;
  world.markChanged("player", p.id);
  if (item.deathId) {
    reclaimDeathPile(world, p, item.deathId);
    return;
  }
  const r = addItem(p.inventory, item.itemId, item.quantity, world.data.items);
  if (r.added === 0) return endAction(world, p, "INVENTORY_FULL", "Your inventory is full");
  p.ledgerEvents.push({ itemId: item.itemId, delta: r.added, cause: "picked_up", ref: item.id, otherId: item.ownerId ?? null });
  p.inventory = r.inventory;
  if (r.added < item.quantity) {
    item.quantity -= r.added;
    world.markChanged("groundItem", item.id);
    world.dirtyChunks.add(chunkKey(item.tile));
  } else {
    world.removeGroundItem(item.id);
  }
  world.groundLinked.add(p.id);
  world.touchPlayer(p);
}
