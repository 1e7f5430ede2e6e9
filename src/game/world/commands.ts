import { deposit, moveToTab, releaseAllPlaceholders, releasePlaceholder, withdraw } from "../bank.js";
import { canGather } from "../gathering.js";
import { addItemAll, assertQuantity, assertSlot, removeFromSlot } from "../inventory.js";
import { chebyshev, validateMoveTarget } from "../movement.js";
import { findPath } from "../pathfinding.js";
import { GameError, type Tile } from "../types.js";
import { canSeeGroundItem } from "./deathPiles.js";
import type { CombatStyle } from "../../protocol/index.js";
import type { PlayerEntity } from "./entities.js";
import { checkStyle, isStaff } from "../attacks.js";
import { planAttack } from "./fighting.js";
import { nearBank, weaponOf } from "./players.js";
import type { World } from "./World.js";
import { playerOf } from "./worldCore.js";


/** The player a command that changes items is for: refused while a trade, a deal or a feature's settlement of theirs is being committed. */
export function itemHolderOf(world: World, id: string): PlayerEntity {
  const p = playerOf(world, id);
  if (p.inventoryFrozen === "trade") throw new GameError("TRADE_COMPLETING", "Your trade is being completed");
  if (p.inventoryFrozen === "store") throw new GameError("STORE_COMPLETING", "Your purchase or sale is being completed");
  if (p.inventoryFrozen) throw new GameError(p.inventoryFrozen.code, p.inventoryFrozen.message);
  return p;
}

/** Walk or run to a tile: the path is found now, walked by the tick. */
export function movePlayer(world: World, id: string, target: { x: unknown; z: unknown }, run = false) {
  const p = playerOf(world, id);
  const to = validateMoveTarget(world.map, p.tile, target);
  world.ruledFights?.assertMove(p.id, to);
  const path = findPath(world.map, p.tile, to);
  if (!path) throw new GameError("NO_PATH", "You can't reach that spot");
  p.path = path;
  p.running = run;
  // A move ends what the player was doing: its owner is told at the end of this tick.
  if (p.action) p.privateDirty = true;
  p.action = null;
  world.markChanged("player", p.id);
}

/** Choose the style the player fights with (it decides the XP and the style bonuses); the weapon decides which are offered. */
export function setCombatStyle(world: World, id: string, style: CombatStyle) {
  const p = playerOf(world, id);
  p.combatStyle = checkStyle(weaponOf(world, p.equipment), style);
  world.touchPlayer(p);
}

/** Choose the spell the worn staff casts on every attack (null: swing the staff). */
export function setAutocast(world: World, id: string, spellId: string | null) {
  const p = playerOf(world, id);
  if (spellId !== null) {
    const spell = world.data.spells.get(spellId);
    if (!spell) throw new GameError("UNKNOWN_SPELL", `There is no spell called ${spellId}`);
    if (!isStaff(weaponOf(world, p.equipment))) throw new GameError("NO_STAFF", "You need to wield a staff to autocast");
    if (p.levels.magic < spell.level) throw new GameError("LEVEL_TOO_LOW", `You need level ${spell.level} magic to cast ${spell.name}`);
  }
  p.autocast = spellId;
  world.touchPlayer(p);
}

/** `player:setting`: one of the player's settings (a settable player variable, playerVars.ts) changed. */
export function changeSetting(world: World, id: string, name: string, value: unknown) {
  const p = playerOf(world, id);
  p.vars[name] = world.vars.checkSetting(name, value);
  world.touchPlayer(p);
}

/** Stop walking and whatever the player was doing. */
export function stopPlayer(world: World, id: string) {
  const p = playerOf(world, id);
  p.path = [];
  p.action = null;
  world.markChanged("player", p.id);
  world.touchPlayer(p);
}

/** Path to a tile next to `target` (or onto it when it is walkable and `onto`). */
export function walkTowards(world: World, p: PlayerEntity, target: Tile, onto = false) {
  if (onto ? p.tile.x === target.x && p.tile.z === target.z : adjacent(p.tile, target)) {
    p.path = [];
    return;
  }
  const path = findPath(world.map, p.tile, target, { adjacent: !onto });
  if (!path) throw new GameError("NO_PATH", "You can't reach that");
  p.path = path;
}

/** What canGather needs beyond the inventory: worn tools count, tools.json ranks them. */
export function gatherOptions(world: World, p: PlayerEntity) {
  return { tools: world.data.tools, equipped: Object.values(p.equipment).map((s) => s!.itemId) };
}

export const adjacent = (a: Tile, b: Tile) => Math.max(Math.abs(a.x - b.x), Math.abs(a.z - b.z)) <= 1;

/** How far (tiles, Chebyshev) a player may stand from an npc and keep talking or trading with it. */
export const TALK_RANGE = 3;
export const withinTalk = (a: Tile, b: Tile) => chebyshev(a, b) <= TALK_RANGE;

/** Start gathering from a resource node: checked now, worked every cycle by the tick. */
export function startGather(world: World, id: string, targetId: string) {
  const p = playerOf(world, id);
  const node = world.resources.get(targetId);
  if (!node || node.skill === "firemaking") throw new GameError("UNKNOWN_TARGET", "There is nothing to gather there");
  if (node.depleted) throw new GameError("DEPLETED", `The ${node.name.toLowerCase()} is depleted`);
  const def = world.data.gathering[node.skill].get(node.resourceId)!;
  const check = canGather(def, p.levels[node.skill], p.inventory, world.data.items, gatherOptions(world, p));
  if (!check.ok) throw new GameError(check.code, check.message);
  walkTowards(world, p, node.tile);
  p.action = { type: "gather", targetId, nextTick: world.tick + def.cycleTicks };
  world.markChanged("player", p.id);
}

/**
 * Attack an npc: the tick walks into reach and strikes at the weapon's (or the spell's) speed. With
 * `spellId`, one cast of that spell. What the blow needs (arrows, runes, levels) is checked now and
 * at every blow.
 */
export function startAttack(world: World, id: string, targetId: string, spellId?: string) {
  const p = playerOf(world, id);
  if (world.players.has(targetId)) return startPlayerAttack(world, p, targetId, spellId);
  if (world.engaged(p.id)) throw new GameError("IN_DUEL", "Fight your opponent: you are in a duel");
  const npc = world.npcs.get(targetId);
  if (!npc) throw new GameError("UNKNOWN_TARGET", "There is no one to attack there");
  if (!npc.attackable) throw new GameError("NOT_ATTACKABLE", `You can't attack the ${npc.name.toLowerCase()}`);
  if (npc.deadUntilTick != null) throw new GameError("TARGET_DEAD", `The ${npc.name.toLowerCase()} is already dead`);
  const plan = planAttack(world, p, spellId);
  if (chebyshev(p.tile, npc.position) > plan.reach) walkTowards(world, p, npc.position);
  else p.path = [];
  p.action = { type: "attack", targetId, ...(spellId ? { spellId } : {}) };
  world.markChanged("player", p.id);
}

/** Attack a player: a ruled fight's opponent under its rules (a duel), or another where a feature allows it (a PvP area). */
function startPlayerAttack(world: World, p: PlayerEntity, targetId: string, spellId?: string) {
  if (targetId === p.id) throw new GameError("NOT_ATTACKABLE", "You can't attack yourself");
  const ruled = world.ruledFights;
  const inRuledFight = ruled?.opponentOf(p.id) === targetId;
  const target = world.players.get(targetId)!;
  if (!inRuledFight) {
    if (world.engaged(p.id)) throw new GameError("NOT_ATTACKABLE", "The fight has not begun");
    if (!world.playerCombat) throw new GameError("NOT_ATTACKABLE", "You can only fight another player in a duel");
    if (target.health <= 0) throw new GameError("TARGET_DEAD", `${target.name} is already dead`);
    world.playerCombat.check(world, p, target);
  }
  const plan = planAttack(world, p, spellId);
  if (inRuledFight) ruled!.assertAllowed(p.id, plan.kind);
  // Rooted by the rules (a duel's noMovement), a fighter strikes from where it stands.
  const rooted = inRuledFight && ruled!.rooted(p.id);
  if (chebyshev(p.tile, target.tile) > plan.reach && !rooted) walkTowards(world, p, target.tile);
  else p.path = [];
  p.action = { type: "attack", targetId, ...(spellId ? { spellId } : {}) };
  world.markChanged("player", p.id);
}

/** Pick up a ground item the player can see: walk onto its tile, take it there. */
export function startPickup(world: World, id: string, targetId: string) {
  const p = playerOf(world, id);
  const item = world.groundItems.get(targetId);
  if (!item || !canSeeGroundItem(item, p.id, world.tick)) throw new GameError("UNKNOWN_TARGET", "There is no such item here");
  if (world.engaged(p.id)) throw new GameError("IN_DUEL", "You can't pick things up during a duel");
  walkTowards(world, p, item.tile, true);
  p.action = { type: "pickup", targetId };
  world.markChanged("player", p.id);
}

function assertUnlocked(p: PlayerEntity, slot: number) {
  if (p.lockedSlots.has(slot)) throw new GameError("ITEM_LOCKED", "That item is offered in a trade");
}

/** Deposit from an inventory slot into the bank (near a bank only); a new item goes to `tab`. */
export function bankDeposit(world: World, id: string, slot: unknown, quantity: unknown, tab = 0) {
  const p = itemHolderOf(world, id);
  assertSlot(slot as number);
  assertQuantity(quantity as number);
  if (!nearBank(world, p)) throw new GameError("NOT_NEAR_BANK", "You need to be at a bank");
  const itemId = p.inventory[slot as number]?.itemId;
  // A non-stackable deposit may take the same item from several slots: none of them may be offered.
  for (const [i, s] of p.inventory.entries()) if (s && s.itemId === itemId) assertUnlocked(p, i);
  const r = deposit(p.inventory, p.bank, slot as number, quantity as number, world.data.items, tab);
  p.inventory = r.inventory;
  p.bank = r.bank;
  world.touchPlayer(p);
  return r.moved;
}

/** Withdraw from the bank into the inventory (near a bank only). */
export function bankWithdraw(world: World, id: string, itemId: unknown, quantity: unknown) {
  const p = itemHolderOf(world, id);
  if (typeof itemId !== "string" || itemId.length === 0) throw new GameError("INVALID_ITEM", "Name an item to withdraw");
  assertQuantity(quantity as number);
  if (!nearBank(world, p)) throw new GameError("NOT_NEAR_BANK", "You need to be at a bank");
  const r = withdraw(p.inventory, p.bank, itemId, quantity as number, world.data.items, p.vars.bankPlaceholders === true);
  p.inventory = r.inventory;
  p.bank = r.bank;
  world.touchPlayer(p);
  return r.moved;
}

/** `bank:tab`: move an item's stack (or placeholder) to a tab (near a bank only). */
export function bankMoveTab(world: World, id: string, itemId: string, tab: number) {
  const p = itemHolderOf(world, id);
  if (!nearBank(world, p)) throw new GameError("NOT_NEAR_BANK", "You need to be at a bank");
  p.bank = moveToTab(p.bank, itemId, tab);
  world.touchPlayer(p);
}

/** `bank:release`: take a placeholder away (or, without an item, every one) (near a bank only). */
export function bankRelease(world: World, id: string, itemId?: string) {
  const p = itemHolderOf(world, id);
  if (!nearBank(world, p)) throw new GameError("NOT_NEAR_BANK", "You need to be at a bank");
  p.bank = itemId === undefined ? releaseAllPlaceholders(p.bank) : releasePlaceholder(p.bank, itemId);
  world.touchPlayer(p);
}

/** Drop (part of) an inventory slot onto the player's tile, seen by the player first. */
export function dropItem(world: World, id: string, slot: number, quantity?: number) {
  const p = itemHolderOf(world, id);
  assertSlot(slot);
  assertUnlocked(p, slot);
  const held = p.inventory[slot];
  if (!held) throw new GameError("EMPTY_SLOT", "That slot is empty");
  // Dropping more than the slot holds drops the whole slot.
  const r = removeFromSlot(p.inventory, slot, Math.min(quantity ?? held.quantity, held.quantity));
  p.inventory = r.inventory;
  const groundId = world.newId();
  p.ledgerEvents.push({ itemId: r.removed.itemId, delta: -r.removed.quantity, cause: "dropped", ref: groundId });
  world.addGroundItem({ id: groundId, itemId: r.removed.itemId, quantity: r.removed.quantity, tile: { ...p.tile }, ownerId: p.id, createdTick: world.tick });
  world.groundLinked.add(p.id);
  world.touchPlayer(p);
}

/** Admin: put a player on a tile at once. */
/** Admin: where a teleport would put the player, or the refusal (nothing changes). */
export function planTeleport(world: World, id: string, target: { x: unknown; z: unknown }): Tile {
  playerOf(world, id);
  const x = Number(target.x);
  const z = Number(target.z);
  if (!Number.isInteger(x) || !Number.isInteger(z)) throw new GameError("INVALID_TARGET", "Give whole tile coordinates");
  if (!world.map.inBounds(x, z)) throw new GameError("OUT_OF_BOUNDS", "That is outside the world");
  if (world.map.isBlocked(x, z)) throw new GameError("BLOCKED", "That tile is blocked");
  return { x, z };
}

export function teleport(world: World, id: string, target: { x: unknown; z: unknown }) {
  const { x, z } = planTeleport(world, id, target);
  const p = playerOf(world, id);
  p.tile = { x, z };
  p.path = [];
  p.action = null;
  world.place("player", p.id, p.tile);
  world.touchPlayer(p, true);
}

/** Admin: create items in a player's inventory (all or nothing). */
export function giveItem(world: World, id: string, itemId: string, quantity: number) {
  const p = itemHolderOf(world, id);
  p.inventory = planGive(world, id, itemId, quantity);
  world.touchPlayer(p);
}

/** Admin: the pack a /give would leave, or the refusal (nothing changes). */
export function planGive(world: World, id: string, itemId: string, quantity: number) {
  const p = itemHolderOf(world, id);
  if (!world.data.items.has(itemId)) throw new GameError("UNKNOWN_ITEM", `No item called ${itemId}`);
  assertQuantity(quantity);
  return addItemAll(p.inventory, itemId, quantity, world.data.items).inventory;
}
