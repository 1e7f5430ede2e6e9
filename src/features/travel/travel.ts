import { countItem, takeUnlocked, unlockedView } from "../../game/inventory.js";
import { COINS, GameError } from "../../game/types.js";
import { adjacent, itemHolderOf, walkTowards } from "../../game/world/commands.js";
import { inCombat } from "../../game/world/combatState.js";
import type { NpcEntity, PlayerAction, PlayerEntity } from "../../game/world/entities.js";
import type { World } from "../../game/world/World.js";
import { routesIn, type Route } from "./travelManifest.js";

/**
 * Travel by cart or ferry. `travel:ride {npcId}` walks up to a carter (an npc with a route in
 * travel.json, following it as it wanders); next to it, the fare leaves the pack (the item ledger's
 * `paid`, ref `travel:<route id>`) and the player is put on the route's destination at once
 * (notice TRAVELLED). Refused: UNKNOWN_TARGET (no such npc, or one without a route), NO_FARE
 * (fewer coins in the pack than the fare; coins offered in a trade do not count), IN_COMBAT (a
 * blow given or taken in the last 10 s), IN_DUEL (in a duel's arena), and while a trade, a store
 * deal or a duel's settlement holds the pack; each is checked when asked and again at the carter.
 * A move or any other order on the way calls it off, and nothing is paid.
 */

type RideAction = Extract<PlayerAction, { type: "feature" }>;

/** `travel:ride`: checked now, carried out by the tick once next to the carter. */
export function startTravel(world: World, playerId: string, npcId: string) {
  const p = itemHolderOf(world, playerId);
  const { npc, route } = carterOf(world, npcId);
  checkRider(world, p, route);
  walkTowards(world, p, npc.position);
  p.action = { type: "feature", feature: "travel", targetId: npc.id, step: 0, untilTick: 0 };
  world.markChanged("player", p.id);
}

/** WorldFeature.action: walk up to the carter, then pay and ride. */
export function tickTravel(world: World, p: PlayerEntity, action: RideAction) {
  const { npc, route } = carterOf(world, action.targetId);
  if (!adjacent(p.tile, npc.position)) {
    const end = p.path[p.path.length - 1];
    if (!end || !adjacent(end, npc.position)) walkTowards(world, p, npc.position);
    return;
  }
  p.action = null;
  p.path = [];
  itemHolderOf(world, p.id);
  checkRider(world, p, route);
  ride(world, p, route);
}

function ride(world: World, p: PlayerEntity, route: Route) {
  if (route.fare > 0) {
    p.inventory = takeUnlocked(p.inventory, COINS, route.fare, undefined, p.lockedSlots);
    p.ledgerEvents.push({ itemId: COINS, delta: -route.fare, cause: "paid", ref: `travel:${route.id}` });
  }
  p.tile = { ...route.to };
  world.place("player", p.id, p.tile);
  world.touchPlayer(p, true);
  const paid = route.fare > 0 ? ` for ${route.fare} coins` : "";
  world.events.push({ kind: "notice", playerId: p.id, code: "TRAVELLED", message: `You travel to ${route.name}${paid}` });
}

function checkRider(world: World, p: PlayerEntity, route: Route) {
  if (world.engaged(p.id)) throw new GameError("IN_DUEL", "You can't travel during a duel");
  if (inCombat(p, world.tick)) throw new GameError("IN_COMBAT", "You can't travel during a fight; wait 10 seconds after it");
  const coins = countItem(unlockedView(p.inventory, p.lockedSlots), COINS);
  if (coins < route.fare) throw new GameError("NO_FARE", `The fare to ${route.name} is ${route.fare} coins; you have ${coins}`);
}

function carterOf(world: World, npcId: string): { npc: NpcEntity; route: Route } {
  const npc = world.npcs.get(npcId);
  if (!npc || npc.deadUntilTick != null) throw new GameError("UNKNOWN_TARGET", "There is no one there");
  const route = routesIn(world).get(npc.defId);
  if (!route) throw new GameError("UNKNOWN_TARGET", `The ${npc.name.toLowerCase()} takes no one anywhere`);
  return { npc, route };
}
