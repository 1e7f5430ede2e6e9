import { heldOf, noteChange } from "../ledger.js";
import { rollBlow } from "../attacks.js";
import { spellMaxHit } from "../magic.js";
import { GROUND_ITEM_DESPAWN_TICKS, rollDrops } from "../drops.js";
import { applyNpcAction, decideNpcAction, respawnDue, respawnNpc, respawnTick, type NearbyPlayer } from "../npcBehaviour.js";
import { HEALTH_PER_LEVEL, maxHealth } from "../skills.js";
import { INVENTORY_SIZE, type ItemStack } from "../types.js";
import { stacksOf, type NpcEntity, type PlayerEntity } from "./entities.js";
import { clearDeathPilesOf } from "./deathPiles.js";
import { npcFighter, playerFighter } from "./fighters.js";
import { questDeed } from "./questing.js";
import { retaliate } from "./combatState.js";
import type { World } from "./World.js";
import { prayersOff } from "./worldCore.js";

/** How far an npc looks for players to fight (beyond its aggro range it ignores them anyway). */
const NPC_SIGHT_TILES = 16;
/** The players one npc sees, filled by each npc's look in turn. */
const sighted = new Set<string>();

/** One tick of every npc: respawn the dead, let the living decide and act. */
export function tickNpcs(world: World) {
  for (const npc of world.npcs.values()) {
    const def = world.data.npcs.get(npc.defId)!;
    if (npc.deadUntilTick != null) {
      if (respawnDue(npc, world.tick)) {
        respawnNpc(npc, def);
        npc.damageBy.clear();
        world.place("npc", npc.id, npc.position);
      }
      continue;
    }
    if (!npc.attackable && def.movement.type === "stationary") continue;
    const nearby: NearbyPlayer[] = [];
    for (const id of world.near("player", npc.position, NPC_SIGHT_TILES, sighted)) {
      const p = world.players.get(id);
      // Duellists in the arena are left alone (a duel death is not a world death).
      if (p) nearby.push({ id: p.id, position: p.tile, combatLevel: p.combatLevel, dead: p.health <= 0 || world.engaged(p.id) });
    }
    if (nearby.length === 0 && npc.target == null && !npc.returning && npc.position.x === npc.spawn.x && npc.position.z === npc.spawn.z && !npc.wanderTo) {
      // Nobody around and nothing to do: skip the decision (most npcs, most ticks).
      if (def.movement.wanderRadius <= 0) continue;
    }
    const before = npc.position;
    const targetBefore = npc.target;
    const action = decideNpcAction(npc, def, nearby, world.tick, { map: world.map, rng: world.rng });
    applyNpcAction(npc, action, world.tick);
    if (npc.position !== before) world.place("npc", npc.id, npc.position);
    else if (npc.target !== targetBefore) world.markChanged("npc", npc.id);
    if (action.type === "attack") {
      const target = world.players.get(action.targetId);
      // A player whose trade is being committed is not hit until it is done (a death would empty the inventory).
      if (target && !target.inventoryFrozen) npcHitsPlayer(world, npc, target);
    }
  }
}

function npcHitsPlayer(world: World, npc: NpcEntity, p: PlayerEntity) {
  const c = world.data.npcs.get(npc.defId)!.combat;
  const attacker = npcFighter(world, npc);
  // An archer's arrows give its shots their strength; a caster hits as hard as its spell.
  if (c.attackType === "ranged") attacker.gear.rangedStrength = world.data.ammunition.get(c.arrowId ?? "")?.rangedStrength ?? 0;
  const spell = c.attackType === "magic" ? world.data.spells.get(c.spellId ?? "") : undefined;
  const blow = rollBlow(world.rng, c.attackType, attacker, playerFighter(world, p), spell ? spellMaxHit(spell) : 0);
  // The npc's hit is in hitpoints; a player's health is in life points.
  const damage = Math.min(p.health, blow.damage * HEALTH_PER_LEVEL);
  p.health -= damage;
  p.lastHitBy = npc.id;
  p.lastHitTick = world.tick;
  world.touchPlayer(p, true);
  const splash = c.attackType === "magic" && blow.missed;
  world.events.push({ kind: "hit", attackerId: npc.id, targetId: p.id, damage, targetHealth: p.health, at: { ...p.tile }, style: c.attackType, ...(splash ? { splash } : {}) });
  retaliate(p, npc.id);
  if (p.health <= 0) killPlayer(world, p, npc.id);
}

/** An npc dies: loot for whoever did the most damage, a kill to their count, a respawn timer. */
export function killNpc(world: World, npc: NpcEntity, killer: PlayerEntity) {
  const def = world.data.npcs.get(npc.defId)!;
  let owner = killer.id;
  let most = -1;
  for (const [id, dmg] of npc.damageBy) if (dmg > most && world.players.has(id)) [owner, most] = [id, dmg];
  for (const drop of rollDrops(world.rng, def.drops)) {
    if (!world.data.items.has(drop.itemId)) continue;
    world.addGroundItem({ id: world.newId(), itemId: drop.itemId, quantity: drop.quantity, tile: { ...npc.position }, ownerId: owner, createdTick: world.tick });
  }
  const credited = world.players.get(owner) ?? killer;
  credited.pendingKills.set(def.id, (credited.pendingKills.get(def.id) ?? 0) + 1);
  questDeed(world, credited, { type: "kill", target: def.id });
  world.events.push({ kind: "npcKilled", playerId: credited.id, npcId: def.id, at: { ...npc.position } });
  npc.deadUntilTick = respawnTick(def, world.tick);
  npc.target = null;
  for (const p of world.players.values()) {
    if (p.action?.type === "attack" && p.action.targetId === npc.id) {
      p.action = null;
      world.markChanged("player", p.id);
    }
  }
  world.unplace("npc", npc.id);
}

/** How long a death pile waits for its owner. */
export const DEATH_PILE_TICKS = GROUND_ITEM_DESPAWN_TICKS * 5;

/**
 * A player dies: the inventory becomes a death pile at the spot (only its owner sees it and may
 * take it back, once; an older pile of the same player is gone), the player wakes at the spawn
 * with full health. Worn equipment is kept.
 */
export function killPlayer(world: World, p: PlayerEntity, killedBy: string | null) {
  const at = { ...p.tile };
  clearDeathPilesOf(world, p);
  const items: ItemStack[] = stacksOf(p.inventory).map((s) => ({ ...s }));
  const deathId = world.newId();
  items.forEach((stack, i) => {
    world.addGroundItem({ id: `death:${deathId}:${i}`, itemId: stack.itemId, quantity: stack.quantity, tile: at, ownerId: p.id, createdTick: world.tick, deathId });
  });
  // Their trade and duel end (a player whose trade is being committed cannot be hurt).
  world.playerGone(p.id, "player_died");
  const before = heldOf(p);
  p.inventory = new Array(INVENTORY_SIZE).fill(null);
  noteChange(p, before, "death_lost", deathId);
  p.pendingDeaths.push({ id: deathId, at, items, killedBy });
  respawn(world, p);
  world.events.push({ kind: "death", playerId: p.id, deathId, at, items, killedBy });
}

/** After a death: full health, every prayer off, standing idle at the spawn, no npc after them. */
export function respawn(world: World, p: PlayerEntity) {
  p.health = maxHealth(p.levels.constitution);
  prayersOff(world, p);
  p.tile = { ...world.spawnTile };
  p.path = [];
  p.action = null;
  world.place("player", p.id, p.tile);
  world.touchPlayer(p, true);
  for (const npc of world.npcs.values()) if (npc.target === p.id) npc.target = null;
  for (const other of world.players.values()) {
    if (other.action?.type === "attack" && other.action.targetId === p.id) {
      other.action = null;
      world.markChanged("player", other.id);
    }
  }
}
