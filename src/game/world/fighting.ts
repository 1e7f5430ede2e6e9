/**
 * A player's attacks in the world: melee swings, bow shots (one arrow each, broken or left under
 * the target for the shooter to pick up) and spells (runes taken per cast, an elemental staff
 * standing in for its rune), at the weapon's or the spell's speed and reach, with the active
 * prayers' boosts; at npcs, or at a duel's opponent under the duel's rules. The odds are
 * src/game/attacks.ts's; this file moves the world.
 */
import type { AmmoDef, SpellDef } from "../../manifests/combat.js";
import { isStaff, rollBlow, type AttackKind } from "../attacks.js";
import { combatXpForDamage } from "../combat.js";
import { weaponSpeedTicks } from "../equipment.js";
import { takeUnlocked, unlockedView } from "../inventory.js";
import { checkCast, magicXpForCast, spellMaxHit } from "../magic.js";
import { chebyshev } from "../movement.js";
import { findPath } from "../pathfinding.js";
import { arrowFate, checkAmmo, isBow, rangedReach, rangedSpeedTicks, rangedXpForDamage, type RangedStyle } from "../ranged.js";
import { HEALTH_PER_LEVEL } from "../skills.js";
import { GameError, type SkillName, type Tile } from "../types.js";
import type { NpcEntity, PlayerEntity } from "./entities.js";
import { npcFighter, playerFighter } from "./fighters.js";
import { killNpc } from "./npcSystem.js";
import { retaliate } from "./combatState.js";
import { weaponOf } from "./players.js";
import { grantXp } from "./xp.js";
import type { World } from "./World.js";
import { chunkKey } from "./worldCore.js";

/** How a player attacks now: the kind of blow, its reach, its speed, and what it uses up. */
export interface AttackPlan {
  kind: AttackKind;
  /** Chebyshev tiles. */
  reach: number;
  speedTicks: number;
  spell?: SpellDef;
  runes?: Array<{ runeId: string; quantity: number }>;
  ammo?: AmmoDef;
}

/** The blow a player would strike with what they wear, carry and chose (throws why they can't). */
export function planAttack(world: World, p: PlayerEntity, spellId?: string): AttackPlan {
  const weapon = weaponOf(world, p.equipment);
  const castId = spellId ?? (isStaff(weapon) ? (p.autocast ?? undefined) : undefined);
  if (castId) {
    const spell = world.data.spells.get(castId);
    if (!spell) throw new GameError("UNKNOWN_SPELL", `There is no spell called ${castId}`);
    const runes = checkCast(spell, p.levels.magic, unlockedView(p.inventory, p.lockedSlots), weapon?.providesRunes ?? []);
    return { kind: "magic", reach: isStaff(weapon) ? Math.min(10, Math.max(1, weapon!.attackRange ?? 10)) : 10, speedTicks: spell.attackSpeed, spell, runes };
  }
  const speed = weaponSpeedTicks(p.equipment, world.data.items);
  if (weapon && isBow(weapon)) {
    const style = p.combatStyle as RangedStyle;
    const ammo = checkAmmo(weapon, p.equipment.arrows?.itemId, ammunitionOf(world), p.levels.ranged);
    return { kind: "ranged", reach: rangedReach(weapon.attackRange, style), speedTicks: rangedSpeedTicks(speed, style), ammo };
  }
  return { kind: "melee", reach: 1, speedTicks: speed };
}

/** ammunition.json's arrows; a world without that file fires whatever is worn in the arrows slot. */
function ammunitionOf(world: World): ReadonlyMap<string, AmmoDef> {
  if (world.data.ammunition.size > 0) return world.data.ammunition;
  const out = new Map<string, AmmoDef>();
  for (const def of world.data.items.values()) {
    if (def.equipSlot?.toLowerCase() === "arrows") out.set(def.id, { id: def.id, rangedStrength: 0, requiredRangedLevel: 1, requiredBowTier: 1 });
  }
  return out;
}

/** The tick's part of an attack: follow into reach, then strike at the plan's speed. */
export function tickAttack(world: World, p: PlayerEntity) {
  const action = p.action as Extract<PlayerEntity["action"], { type: "attack" }>;
  const npc = world.npcs.get(action.targetId);
  const foe = npc ? undefined : world.players.get(action.targetId);
  const ruled = foe !== undefined && world.ruledFights?.opponentOf(p.id) === foe.id;
  const gone = npc ? npc.deadUntilTick != null : !foe || foe.health <= 0 || (!ruled && !world.playerCombat);
  if (gone) {
    p.action = null;
    world.markChanged("player", p.id);
    return;
  }
  // A foe whose trade, purchase or settlement is being written is not struck until it is done.
  if (foe?.inventoryFrozen) return;
  // A fight between players outside a duel goes on only while the feature that allows it still does.
  if (foe && !ruled) world.playerCombat!.check(world, p, foe);
  const plan = planAttack(world, p, action.spellId);
  const at = npc ? npc.position : foe!.tile;
  if (ruled) world.ruledFights!.assertAllowed(p.id, plan.kind);
  if (!inReach(p.tile, at, plan.reach)) return follow(world, p, at, npc ? `the ${npc.name.toLowerCase()}` : foe!.name);
  p.path = [];
  if (world.tick - p.lastAttackTick < plan.speedTicks) return;
  p.lastAttackTick = world.tick;
  if (npc) strikeNpc(world, p, npc, plan);
  else strikePlayer(world, p, foe!, plan, ruled);
  // A single cast is one blow; the player then stands and waits.
  if (action.spellId && p.action === action) {
    p.action = null;
    world.markChanged("player", p.id);
  }
}

const inReach = (from: Tile, to: Tile, reach: number) => chebyshev(from, to) <= reach;

/** Walk towards a moving target, re-planning when the path no longer ends next to it. */
function follow(world: World, p: PlayerEntity, target: Tile, name: string) {
  const end = p.path[p.path.length - 1];
  if (end && chebyshev(end, target) <= 1) return;
  // Rooted by a ruled fight's rules (a duel's noMovement): wait for the opponent to come into reach.
  if (world.engaged(p.id) && world.ruledFights!.rooted(p.id)) return;
  const path = findPath(world.map, p.tile, target, { adjacent: true, maxNodes: 4000 });
  if (!path) throw new GameError("NO_PATH", `You can't reach ${name}`);
  p.path = path;
}

function strikeNpc(world: World, p: PlayerEntity, npc: NpcEntity, plan: AttackPlan) {
  const attacker = playerFighter(world, p);
  const defender = npcFighter(world, npc);
  const spellMax = plan.spell ? spellMaxHit(plan.spell) : 0;
  const blow = rollBlow(world.rng, plan.kind, attacker, defender, spellMax);
  useUp(world, p, plan, npc.position);
  const damage = Math.min(npc.health, blow.damage);
  npc.health -= damage;
  npc.damageBy.set(p.id, (npc.damageBy.get(p.id) ?? 0) + damage);
  npc.lastAttackerId = p.id;
  world.markChanged("npc", npc.id);
  const splash = plan.kind === "magic" && blow.missed;
  world.events.push({ kind: "hit", attackerId: p.id, targetId: npc.id, damage, targetHealth: npc.health, at: { ...npc.position }, style: plan.kind, ...(splash ? { splash } : {}) });
  for (const [skill, amount] of Object.entries(xpFor(plan, p, damage))) grantXp(world, p, skill as SkillName, amount!);
  if (npc.health <= 0) {
    killNpc(world, npc, p);
    p.action = null;
    world.markChanged("player", p.id);
  }
}

/**
 * A blow at another player (the duel's opponent, or a foe where a feature allows it): the same odds
 * as against anyone, the damage in life points (a hitpoint is 10 of them, as for an npc's blows).
 * At 0 a duel is lost, which is not a death; outside a duel the feature decides the death.
 */
function strikePlayer(world: World, p: PlayerEntity, foe: PlayerEntity, plan: AttackPlan, ruled: boolean) {
  const blow = rollBlow(world.rng, plan.kind, playerFighter(world, p), playerFighter(world, foe), plan.spell ? spellMaxHit(plan.spell) : 0);
  useUp(world, p, plan, foe.tile);
  const hitpoints = Math.min(Math.ceil(foe.health / HEALTH_PER_LEVEL), blow.damage);
  foe.health = Math.max(0, foe.health - blow.damage * HEALTH_PER_LEVEL);
  foe.lastHitBy = p.id;
  foe.lastHitTick = world.tick;
  world.touchPlayer(foe, true);
  const splash = plan.kind === "magic" && blow.missed;
  world.events.push({ kind: "hit", attackerId: p.id, targetId: foe.id, damage: blow.damage * HEALTH_PER_LEVEL, targetHealth: foe.health, at: { ...foe.tile }, style: plan.kind, ...(splash ? { splash } : {}) });
  for (const [skill, amount] of Object.entries(xpFor(plan, p, hitpoints))) grantXp(world, p, skill as SkillName, amount!);
  retaliate(foe, p.id);
  if (!ruled) world.playerCombat!.struck(world, p, foe);
  if (foe.health <= 0) {
    if (ruled) world.ruledFights!.defeated(foe.id);
    else world.playerCombat!.killed(world, foe, p);
  }
}

/** Experience for one blow: per style for melee and ranged, per cast plus per damage for magic. */
function xpFor(plan: AttackPlan, p: PlayerEntity, damage: number): Partial<Record<SkillName, number>> {
  if (plan.kind === "magic") return magicXpForCast(plan.spell!, damage);
  if (plan.kind === "ranged") return rangedXpForDamage(damage, p.combatStyle as RangedStyle);
  return combatXpForDamage(damage, p.combatStyle);
}

/** What a blow uses up: the runes of a cast, the arrow of a shot (broken, or dropped under the target). */
function useUp(world: World, p: PlayerEntity, plan: AttackPlan, at: Tile) {
  if (plan.runes?.length) {
    for (const r of plan.runes) {
      p.inventory = takeUnlocked(p.inventory, r.runeId, r.quantity, undefined, p.lockedSlots);
      p.ledgerEvents.push({ itemId: r.runeId, delta: -r.quantity, cause: "consumed", ref: "cast" });
    }
    world.touchPlayer(p);
  }
  if (plan.ammo) {
    const worn = p.equipment.arrows!;
    if (worn.quantity > 1) p.equipment.arrows = { itemId: worn.itemId, quantity: worn.quantity - 1 };
    else delete p.equipment.arrows;
    world.touchPlayer(p, true);
    const dropped = arrowFate(world.rng) === "dropped";
    p.ledgerEvents.push({ itemId: worn.itemId, delta: -1, cause: dropped ? "dropped" : "consumed", ref: dropped ? "arrow" : "shot" });
    if (dropped) dropArrow(world, p, worn.itemId, at);
  }
}

/** A shot arrow on the ground under the target, seen by the shooter first; arrows of one shooter on one tile pile up. */
function dropArrow(world: World, p: PlayerEntity, itemId: string, at: Tile) {
  for (const id of world.near("groundItem", at, 0)) {
    const g = world.groundItems.get(id);
    if (g && !g.deathId && g.itemId === itemId && g.ownerId === p.id && g.tile.x === at.x && g.tile.z === at.z) {
      g.quantity += 1;
      g.createdTick = world.tick;
      world.markChanged("groundItem", g.id);
      world.dirtyChunks.add(chunkKey(g.tile));
      // Saved with the shooter's arrows slot, in one transaction.
      world.groundLinked.add(p.id);
      return;
    }
  }
  world.addGroundItem({ id: world.newId(), itemId, quantity: 1, tile: { ...at }, ownerId: p.id, createdTick: world.tick });
  world.groundLinked.add(p.id);
}

