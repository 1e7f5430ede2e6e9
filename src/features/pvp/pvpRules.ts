import { heldOf, noteChange } from "../../game/ledger.js";
import { GameError, INVENTORY_SIZE, type ItemStack, type Tile } from "../../game/types.js";
import { styleAfterSwitch } from "../../game/attacks.js";
import { inSafeZone, pvpAreaAt } from "../../game/world/areas.js";
import { IN_COMBAT_TICKS } from "../../game/world/combatState.js";
import type { PlayerEntity } from "../../game/world/entities.js";
import { respawn } from "../../game/world/npcSystem.js";
import { weaponOf } from "../../game/world/players.js";
import type { World } from "../../game/world/World.js";
import type { EquipmentSlot } from "../../protocol/vocabulary.js";

/**
 * Fights between players in a PvP area (world-areas.json `pvpEnabled`), as the game's wilderness:
 *
 * - both players stand in a PvP area and neither in a safe zone (`safeZone`: SAFE_ZONE), else
 *   NOT_IN_PVP_AREA; their combat levels differ by at most BRACKET_BASE + BRACKET_PER_LEVEL x the
 *   area's `difficultyLevel` (the deeper area of the two), else LEVEL_BRACKET. Checked at the order
 *   and at every blow: a foe who walks out of reach of the rules is no longer fought;
 * - striking a player who is not skulled and did not strike you first within SKULL_TICKS gives you
 *   a skull for SKULL_TICKS ticks of play (20 minutes; kept with the character, counted while online);
 * - at a death by a player the dead keep their KEPT_ITEMS most valuable items (by the item data's
 *   `value`, one unit at a time, pack and worn alike), one more under a prayer with a `protectItem`
 *   bonus, none when skulled; the rest fall at the spot as the killer's loot (seen by the killer
 *   first, then by everyone, as an npc's drops), the item ledger naming the cause `pvp_lost`;
 * - a player who leaves within IN_COMBAT_TICKS of a blow given or taken stays in the world until
 *   that time is over (and may be killed meanwhile).
 * The duel arena keeps its own rules (a duel's opponent is fought as the duel says).
 */
export const BRACKET_BASE = 5;
export const BRACKET_PER_LEVEL = 5;
export const SKULL_TICKS = 2000;
export const KEPT_ITEMS = 3;
/** The prayers.json bonus that keeps one more item. */
export const PROTECT_ITEM_BONUS = "protectItem";

export const PVP_VARS = {
  /** Ticks of play left on the skull (0: none). Kept with the character, shown to its player. */
  skullTicks: { initial: 0, min: 0, max: SKULL_TICKS, saved: true, synced: true },
  /** The tick of the last blow given or taken in a fight between players (0: none); starts again at each login. */
  pvpTick: { initial: 0, min: 0, max: Number.MAX_SAFE_INTEGER },
};

/** Who struck a player, and at which tick: a retaliation against them is no aggression. */
const struckBy = new WeakMap<PlayerEntity, Map<string, number>>();

export const bracketOf = (difficultyLevel: number) => BRACKET_BASE + BRACKET_PER_LEVEL * difficultyLevel;

export function checkPvp(world: World, attacker: PlayerEntity, target: PlayerEntity) {
  if (inSafeZone(world, attacker.tile) || inSafeZone(world, target.tile)) throw new GameError("SAFE_ZONE", "You can't attack players in a safe zone");
  const mine = pvpAreaAt(world, attacker.tile);
  const theirs = pvpAreaAt(world, target.tile);
  if (!mine || !theirs) throw new GameError("NOT_IN_PVP_AREA", "You can only fight another player in a duel or in a PvP area");
  const deeper = mine.difficultyLevel >= theirs.difficultyLevel ? mine : theirs;
  const bracket = bracketOf(deeper.difficultyLevel);
  if (Math.abs(attacker.combatLevel - target.combatLevel) > bracket) {
    throw new GameError("LEVEL_BRACKET", `In ${deeper.name} you may fight players within ${bracket} combat levels of yours`);
  }
}

export function struckInPvp(world: World, attacker: PlayerEntity, target: PlayerEntity) {
  attacker.vars.pvpTick = world.tick;
  target.vars.pvpTick = world.tick;
  const mine = struckBy.get(attacker);
  const retaliating = (mine?.get(target.id) ?? -Infinity) > world.tick - SKULL_TICKS;
  let theirs = struckBy.get(target);
  if (!theirs) struckBy.set(target, (theirs = new Map()));
  theirs.set(attacker.id, world.tick);
  if (!retaliating && (target.vars.skullTicks as number) === 0 && (attacker.vars.skullTicks as number) < SKULL_TICKS) {
    const fresh = (attacker.vars.skullTicks as number) === 0;
    attacker.vars.skullTicks = SKULL_TICKS;
    // Everyone around sees the skull (PlayerState.skulled).
    world.touchPlayer(attacker, true);
    if (fresh)
      world.events.push({
        kind: "notice",
        playerId: attacker.id,
        code: "SKULLED",
        message: "A skull appears over your head: you attacked a player who had not attacked you",
      });
  }
}

/** Each tick: the skull wears off with play. */
export function tickSkull(world: World, p: PlayerEntity) {
  const left = p.vars.skullTicks as number;
  if (left <= 0) return;
  p.vars.skullTicks = left - 1;
  if (left === 1) {
    world.touchPlayer(p, true);
    world.events.push({ kind: "notice", playerId: p.id, code: "SKULL_GONE", message: "Your skull has faded" });
  }
}

export const holdsLogout = (world: World, p: PlayerEntity) => (p.vars.pvpTick as number) > 0 && world.tick - (p.vars.pvpTick as number) < IN_COMBAT_TICKS;

/** One unit of an item where it is held. */
interface Unit {
  itemId: string;
  value: number;
  from: { slot: number } | { worn: EquipmentSlot };
}

/**
 * A death by a player's blow: the kept items stay, the rest fall as the killer's loot; the dead
 * respawn at the spawn. The pack, the worn items and the ground change in one save (the ground is
 * linked to the dead player's next save, as a drop is).
 */
export function killedInPvp(world: World, dead: PlayerEntity, killer: PlayerEntity) {
  const at: Tile = { ...dead.tile };
  world.playerGone(dead.id, "player_died");
  const kept = keptCount(world, dead);
  const units: Unit[] = [];
  const valueOf = (itemId: string) => world.data.items.get(itemId)?.value ?? 0;
  dead.inventory.forEach((s, slot) => {
    if (s) for (let i = 0; i < Math.min(s.quantity, kept); i++) units.push({ itemId: s.itemId, value: valueOf(s.itemId), from: { slot } });
  });
  for (const [slot, s] of Object.entries(dead.equipment)) {
    if (s)
      for (let i = 0; i < Math.min(s.quantity, kept); i++) units.push({ itemId: s.itemId, value: valueOf(s.itemId), from: { worn: slot as EquipmentSlot } });
  }
  // The most valuable first; at equal value, what is worn, then the lower slot (a stable choice).
  units.sort((a, b) => b.value - a.value || Number("worn" in b.from) - Number("worn" in a.from));
  const keep = units.slice(0, kept);
  const before = heldOf(dead);
  const keepOf = (where: Unit["from"]) =>
    keep.filter((u) => ("slot" in where ? "slot" in u.from && u.from.slot === where.slot : "worn" in u.from && u.from.worn === where.worn)).length;
  const lost: ItemStack[] = [];
  const pack = new Array(INVENTORY_SIZE).fill(null) as PlayerEntity["inventory"];
  dead.inventory.forEach((s, slot) => {
    if (!s) return;
    const k = Math.min(s.quantity, keepOf({ slot }));
    if (k > 0) pack[slot] = { itemId: s.itemId, quantity: k };
    if (s.quantity > k) lost.push({ itemId: s.itemId, quantity: s.quantity - k });
  });
  const worn: PlayerEntity["equipment"] = {};
  for (const [slot, s] of Object.entries(dead.equipment)) {
    if (!s) continue;
    const k = Math.min(s.quantity, keepOf({ worn: slot as EquipmentSlot }));
    if (k > 0) worn[slot as EquipmentSlot] = { itemId: s.itemId, quantity: k };
    if (s.quantity > k) lost.push({ itemId: s.itemId, quantity: s.quantity - k });
  }
  dead.inventory = pack;
  dead.equipment = worn;
  dead.combatStyle = styleAfterSwitch(weaponOf(world, worn), dead.combatStyle);
  if (!worn.weapon) dead.autocast = null;
  const deathId = world.newId();
  for (const stack of lost) {
    world.addGroundItem({ id: world.newId(), itemId: stack.itemId, quantity: stack.quantity, tile: { ...at }, ownerId: killer.id, createdTick: world.tick });
  }
  noteChange(dead, before, "pvp_lost", deathId, killer.id);
  world.groundLinked.add(dead.id);
  dead.vars.skullTicks = 0;
  dead.vars.pvpTick = 0;
  struckBy.delete(dead);
  respawn(world, dead);
  world.events.push({ kind: "death", playerId: dead.id, deathId, at, items: lost, killedBy: killer.id });
  world.events.push({ kind: "notice", playerId: killer.id, code: "PVP_KILL", message: `You have defeated ${dead.name}` });
}

/** How many items a player dying in PvP keeps. */
export function keptCount(world: World, p: PlayerEntity): number {
  if ((p.vars.skullTicks as number) > 0) return 0;
  const protect = [...p.prayer.active].some((id) => world.data.prayers.get(id)?.bonuses[PROTECT_ITEM_BONUS] !== undefined);
  return KEPT_ITEMS + (protect ? 1 : 0);
}
