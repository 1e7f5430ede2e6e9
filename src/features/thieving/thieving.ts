import { addItem, canAdd } from "../../game/inventory.js";
import { HEALTH_PER_LEVEL } from "../../game/skills.js";
import { GameError } from "../../game/types.js";
import { adjacent, walkTowards } from "../../game/world/commands.js";
import type { NpcEntity, PlayerAction, PlayerEntity, StationEntity } from "../../game/world/entities.js";
import { killPlayer } from "../../game/world/npcSystem.js";
import { grantXp } from "../../game/world/xp.js";
import { TICK_MS } from "../../protocol/vocabulary.js";
import type { World } from "../../game/world/World.js";
import { playerOf } from "../../game/world/worldCore.js";
import { thieveryIn, type Loot, type Pickpocket, type Stall } from "./thievingManifest.js";

/**
 * Thieving. `thieving:pickpocket {npcId}` walks up to the npc (following it as it wanders) and,
 * ATTEMPT_TICKS later, picks its pocket: one draw of its loot and its xp, or, with the chance
 * `pickpocketFailChance` gives, the npc catches the thief: a stun of its `stunTicks` (no walking,
 * no action; every order refused STUNNED) and its `stunDamage` hitpoints. `thieving:steal
 * {stallId}` walks up to a stall and takes one draw of its loot and its xp; the stall is then
 * empty for its `restockTicks` (STALL_EMPTY). Either needs the thieving level of its target
 * (LEVEL_TOO_LOW) and room in the pack for the loot (INVENTORY_FULL); loot is recorded in the item
 * ledger as `stolen`. A move or any other order before the theft calls it off.
 */
export const ATTEMPT_TICKS = 2;

export const THIEVING_VARS = {
  /** The tick a stun ends on (0: none). Shown to its player; a stun does not outlast a logout. */
  stunnedUntilTick: { initial: 0, min: 0, max: Number.MAX_SAFE_INTEGER, synced: true },
};

type TheftAction = Extract<PlayerAction, { type: "feature" }>;

/** Ticks in whole seconds for a message (at least 1). */
const secondsOf = (ticks: number) => Math.max(1, Math.round((ticks * TICK_MS) / 1000));

/** WorldFeature.holdsPlayer: a stunned thief is held until its stun ends. */
export function stunOf(world: World, p: PlayerEntity): GameError | undefined {
  const left = (p.vars.stunnedUntilTick as number) - world.tick;
  if (left <= 0) return undefined;
  return new GameError("STUNNED", `You're stunned for ${secondsOf(left)} more seconds`);
}

/** WorldFeature.playerTick: a stun that is over is cleared (its player sees it end). */
export function tickStun(world: World, p: PlayerEntity) {
  const until = p.vars.stunnedUntilTick as number;
  if (until === 0 || world.tick < until) return;
  p.vars.stunnedUntilTick = 0;
  world.touchPlayer(p);
}

/** The chance to be caught at a level: its failChance at the npc's own level, none from its safeLevel (default: its level + 40). */
export function pickpocketFailChance(t: Pick<Pickpocket, "level" | "failChance" | "safeLevel">, level: number): number {
  const safe = Math.max(t.level + 1, t.safeLevel ?? t.level + 40);
  if (level >= safe) return 0;
  return t.failChance * Math.min(1, (safe - level) / (safe - t.level));
}

/** `thieving:pickpocket`: checked now, carried out by the tick once next to the npc. */
export function startPickpocket(world: World, playerId: string, npcId: string) {
  const p = playerOf(world, playerId);
  const { npc, target } = pickpocketTarget(world, npcId);
  checkThief(world, p, target.level, `pick the ${npc.name.toLowerCase()}'s pocket`);
  checkRoom(world, p, target.loot);
  walkTowards(world, p, npc.position);
  p.action = { type: "feature", feature: "thieving", targetId: npc.id, step: 0, untilTick: 0 };
  world.markChanged("player", p.id);
}

/** `thieving:steal`: checked now, carried out by the tick once next to the stall. */
export function startStealing(world: World, playerId: string, stallId: string) {
  const p = playerOf(world, playerId);
  const { station, stall } = stallTarget(world, stallId);
  checkThief(world, p, stall.level, `steal from the ${stall.name.toLowerCase()}`);
  checkRoom(world, p, stall.loot);
  stallStocked(world, stall);
  walkTowards(world, p, station.tile);
  p.action = { type: "feature", feature: "thieving", targetId: station.id, step: 0, untilTick: 0 };
  world.markChanged("player", p.id);
}

/** WorldFeature.action: walk up to the target, wait ATTEMPT_TICKS, then the theft. */
export function tickTheft(world: World, p: PlayerEntity, action: TheftAction) {
  const stall = thieveryIn(world).stalls.get(action.targetId);
  const pocket = stall ? undefined : pickpocketTarget(world, action.targetId);
  const tile = stall ? world.stations.get(stall.stationId)!.tile : pocket!.npc.position;
  if (action.step === 0) {
    if (!adjacent(p.tile, tile)) {
      const end = p.path[p.path.length - 1];
      if (!end || !adjacent(end, tile)) walkTowards(world, p, tile);
      return;
    }
    p.path = [];
    action.step = 1;
    action.untilTick = world.tick + ATTEMPT_TICKS;
    world.markChanged("player", p.id);
    return;
  }
  // A wandering npc that stepped away is followed; the theft waits until the thief is next to it again.
  if (!adjacent(p.tile, tile)) {
    action.step = 0;
    return;
  }
  if (world.tick < action.untilTick) return;
  p.action = null;
  world.markChanged("player", p.id);
  if (stall) return stealFromStall(world, p, stall);
  pickPocket(world, p, pocket!.npc, pocket!.target);
}

function pickPocket(world: World, p: PlayerEntity, npc: NpcEntity, target: Pickpocket) {
  checkRoom(world, p, target.loot);
  if (world.rng() < pickpocketFailChance(target, p.levels.thieving)) return caught(world, p, npc, target);
  const got = take(world, p, target.loot, npc.defId);
  grantXp(world, p, "thieving", target.xp);
  world.events.push({ kind: "notice", playerId: p.id, code: "STOLEN", message: `You pick the ${npc.name.toLowerCase()}'s pocket: ${got}` });
}

function caught(world: World, p: PlayerEntity, npc: NpcEntity, target: Pickpocket) {
  const damage = target.stunDamage * HEALTH_PER_LEVEL;
  p.path = [];
  p.vars.stunnedUntilTick = world.tick + target.stunTicks;
  world.events.push({
    kind: "notice",
    playerId: p.id,
    code: "PICKPOCKET_FAILED",
    message: `The ${npc.name.toLowerCase()} catches you! You're stunned${damage > 0 ? ` and hurt (${damage})` : ""}`,
  });
  p.health = Math.max(0, p.health - damage);
  world.touchPlayer(p, true);
  if (p.health <= 0) killPlayer(world, p, null);
}

function stealFromStall(world: World, p: PlayerEntity, stall: Stall) {
  stallStocked(world, stall);
  checkRoom(world, p, stall.loot);
  const got = take(world, p, stall.loot, stall.id);
  thieveryIn(world).restocks.set(stall.stationId, world.tick + stall.restockTicks);
  grantXp(world, p, "thieving", stall.xp);
  world.events.push({ kind: "notice", playerId: p.id, code: "STOLEN", message: `You steal from the ${stall.name.toLowerCase()}: ${got}` });
}

/** One draw of the loot into the pack, recorded as stolen; what was taken, in words. */
function take(world: World, p: PlayerEntity, loot: readonly Loot[], ref: string): string {
  const l = draw(world, loot);
  const quantity = l.min + Math.floor(world.rng() * ((l.max ?? l.min) - l.min + 1));
  const r = addItem(p.inventory, l.itemId, quantity, world.data.items);
  if (r.added === 0) throw new GameError("INVENTORY_FULL", "Your inventory is too full to hold what you'd steal");
  p.inventory = r.inventory;
  p.ledgerEvents.push({ itemId: l.itemId, delta: r.added, cause: "stolen", ref });
  world.touchPlayer(p);
  const name = world.data.items.get(l.itemId)?.name ?? l.itemId;
  return r.added > 1 ? `${r.added} x ${name}` : name;
}

function draw(world: World, loot: readonly Loot[]): Loot {
  const total = loot.reduce((n, l) => n + l.weight, 0);
  let roll = world.rng() * total;
  for (const l of loot) {
    roll -= l.weight;
    if (roll < 0) return l;
  }
  return loot[loot.length - 1]!;
}

function checkThief(world: World, p: PlayerEntity, level: number, what: string) {
  if (p.inventoryFrozen) throw new GameError("PLAYER_UNAVAILABLE", "Wait until your trade or purchase is completed");
  if (world.engaged(p.id)) throw new GameError("IN_DUEL", "You can't steal during a duel");
  if (p.levels.thieving < level) throw new GameError("LEVEL_TOO_LOW", `You need thieving level ${level} to ${what}`);
}

/** Room in the pack for whatever the draw gives (a stack it holds counts): checked before the attempt and at it. */
function checkRoom(world: World, p: PlayerEntity, loot: readonly Loot[]) {
  if (!loot.every((l) => canAdd(p.inventory, [{ itemId: l.itemId, quantity: l.max ?? l.min }], world.data.items)))
    throw new GameError("INVENTORY_FULL", "Your inventory is too full to hold what you'd steal");
}

function pickpocketTarget(world: World, npcId: string): { npc: NpcEntity; target: Pickpocket } {
  const npc = world.npcs.get(npcId);
  if (!npc || npc.deadUntilTick != null) throw new GameError("UNKNOWN_TARGET", "There is no one there");
  const target = thieveryIn(world).pickpockets.get(npc.defId);
  if (!target) throw new GameError("UNKNOWN_TARGET", `You can't pick the ${npc.name.toLowerCase()}'s pocket`);
  return { npc, target };
}

function stallTarget(world: World, stallId: string): { station: StationEntity; stall: Stall } {
  const stall = thieveryIn(world).stalls.get(stallId);
  const station = world.stations.get(stallId);
  if (!stall || !station) throw new GameError("UNKNOWN_TARGET", "There is no stall there");
  return { station, stall };
}

function stallStocked(world: World, stall: Stall) {
  const left = (thieveryIn(world).restocks.get(stall.stationId) ?? 0) - world.tick;
  if (left > 0) throw new GameError("STALL_EMPTY", `The ${stall.name.toLowerCase()} is empty; it restocks in ${secondsOf(left)} seconds`);
}
