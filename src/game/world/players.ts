import { isNearBank } from "../bank.js";
import { combatLevel, maxHealth, skillLevels } from "../skills.js";
import type { CharacterSnapshot, PlayerEntity } from "./entities.js";
import { journalView } from "./questing.js";
import { styleAfterSwitch } from "../attacks.js";
import type { Equipment } from "../types.js";
import type { ItemDef } from "../../manifests/gameData.js";
import type { World } from "./World.js";
import type { PlayerSync } from "../../protocol/index.js";

/** Bring a loaded character into the world. */
export function addPlayer(world: World, snap: CharacterSnapshot): PlayerEntity {
  const levels = skillLevels(snap.xp);
  const tile = world.map.inBounds(snap.tile.x, snap.tile.z) && !world.map.isBlocked(snap.tile.x, snap.tile.z) ? { ...snap.tile } : { ...world.spawnTile };
  const p: PlayerEntity = {
    id: snap.id,
    accountId: snap.accountId,
    name: snap.name,
    isAgent: snap.isAgent,
    tile,
    path: [],
    running: false,
    xp: { ...snap.xp },
    levels,
    combatLevel: combatLevel(levels),
    health: Math.min(Math.max(1, snap.health), maxHealth(levels.constitution)),
    inventory: snap.inventory.map((s) => (s ? { ...s } : null)),
    equipment: Object.fromEntries(Object.entries(snap.equipment).map(([k, v]) => [k, { ...v! }])),
    bank: snap.bank.map((s) => ({ ...s })),
    action: null,
    combatStyle: styleAfterSwitch(weaponOf(world, snap.equipment), "accurate"),
    autocast: null,
    prayer: { points: Math.min(Math.max(0, snap.prayerPoints ?? levels.prayer), levels.prayer), active: new Set(), drain: 0 },
    lastAttackTick: -1000,
    lastHitTick: -1000,
    vars: world.vars.load(snap.vars),
    varKept: world.vars.kept,
    lastHitBy: null,
    lockedSlots: new Set(),
    inventoryFrozen: false,
    dialogue: null,
    store: null,
    quests: new Map((snap.quests ?? []).map((q) => [q.questId, { ...q }])),
    pendingKills: new Map(),
    pendingDeaths: [],
    pendingReclaims: [],
    // What it holds as loaded, the ledger's starting point for its next save.
    persistedHeld: snap,
    ledgerEvents: [],
    dirty: false,
    privateDirty: true,
  };
  world.players.set(p.id, p);
  world.place("player", p.id, p.tile);
  return p;
}

/** Take a player out of the world, handing back what must be saved. */
export function removePlayer(world: World, id: string): CharacterSnapshot | null {
  const p = world.players.get(id);
  if (!p) return null;
  // Their trade and duel end (a commit or a settlement in flight is finished by the room before the player leaves).
  world.playerGone(id, "disconnected");
  world.players.delete(id);
  world.unplace("player", id);
  for (const npc of world.npcs.values()) if (npc.target === id) npc.target = null;
  return snapshotOf(p);
}

export function snapshotOf(p: PlayerEntity): CharacterSnapshot {
  return {
    id: p.id,
    accountId: p.accountId,
    name: p.name,
    isAgent: p.isAgent,
    tile: { ...(p.returnTile ?? p.tile) },
    xp: { ...p.xp },
    health: p.health,
    prayerPoints: p.prayer.points,
    inventory: p.inventory.map((s) => (s ? { ...s } : null)),
    equipment: Object.fromEntries(Object.entries(p.equipment).map(([k, v]) => [k, { ...v! }])),
    bank: p.bank.map((s) => ({ ...s })),
    quests: [...p.quests.values()].map((q) => ({ ...q })),
    vars: Object.fromEntries(Object.entries(p.vars).filter(([name]) => p.varKept(name))),
  };
}

/** The private state its owner receives as player:sync. */
export function privateStateOf(world: World, p: PlayerEntity): PlayerSync {
  return {
    id: p.id,
    name: p.name,
    position: { x: p.tile.x, y: 0, z: p.tile.z },
    health: p.health,
    maxHealth: maxHealth(p.levels.constitution),
    combatLevel: p.combatLevel,
    combatStyle: p.combatStyle,
    autocast: p.autocast,
    prayer: { points: p.prayer.points, max: p.levels.prayer, active: [...p.prayer.active] },
    skills: skillsOf(p),
    inventory: p.inventory.map((s, slot) => (s ? { slot, itemId: s.itemId, quantity: s.quantity, locked: p.lockedSlots.has(slot) } : null)).filter((s) => s !== null),
    equipment: p.equipment,
    bank: nearBank(world, p) ? bankView(p) : null,
    action: p.action ? (p.action.type === "feature" ? (p.action.feature as PlayerSync["action"]) : p.action.type) : null,
    quests: journalView(world.data.quests, p.quests.values()),
    vars: world.vars.synced(p.vars),
  };
}

/** Each skill's level and whole xp, as player:sync shows them (a loop: sent to every player whose state changed, every tick). */
function skillsOf(p: PlayerEntity): PlayerSync["skills"] {
  const skills: PlayerSync["skills"] = {};
  for (const s in p.levels) skills[s] = { level: p.levels[s as keyof typeof p.levels], xp: Math.floor(p.xp[s as keyof typeof p.xp]) };
  return skills;
}

/** The bank as its owner sees it: each stack with its tab; a quantity of 0 is a placeholder. */
export const bankView = (p: PlayerEntity) => p.bank.map((s) => ({ itemId: s.itemId, quantity: s.quantity, tab: s.tab ?? 0 }));

/** The item worn in the weapon slot. */
export function weaponOf(world: World, equipment: Equipment): ItemDef | undefined {
  const id = equipment.weapon?.itemId;
  return id ? world.data.items.get(id) : undefined;
}

export function nearBank(world: World, p: PlayerEntity): boolean {
  return isNearBank(p.tile, world.bankTiles);
}
