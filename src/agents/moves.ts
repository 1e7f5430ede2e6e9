import { chebyshev } from "../game/movement.js";
import type { Tile } from "../game/types.js";
import { walkableNear, type WorldKnowledge } from "../game/world/knowledge.js";
import type { Mind, Order } from "./mind.js";
import type { AgentView } from "./view.js";

/** How an agent gets about: legs of a walk, and going to one of a resource's or an npc's spots. */

/** How far one move order goes (the server refuses moves of more than 200 tiles; paths stay short). */
const LEG_TILES = 24;

/** Walk toward a tile: at most one leg at a time, to a walkable tile near it (a walk toward another tile is cut short). */
export function walkToward(mind: Mind, view: AgentView, k: WorldKnowledge, target: Tile, orders: Order[]) {
  const self = view.self!;
  const leg = `${target.x},${target.z}`;
  if (self.moving && mind.leg === leg) return;
  const d = chebyshev(self.tile, target);
  const f = d > LEG_TILES ? LEG_TILES / d : 1;
  const aim = { x: Math.round(self.tile.x + (target.x - self.tile.x) * f), z: Math.round(self.tile.z + (target.z - self.tile.z) * f) };
  const to = walkableNear(k, aim, 4);
  if (!to || (to.x === self.tile.x && to.z === self.tile.z)) {
    mind.stuck++;
    return;
  }
  mind.leg = leg;
  orders.push({ type: "player:move", data: { x: to.x, z: to.z, run: d > 8 } });
}

/** Walk until within `range` tiles of `tile`: true once there. */
export function approach(mind: Mind, view: AgentView, k: WorldKnowledge, tile: Tile, range: number, orders: Order[]): boolean {
  if (chebyshev(view.self!.tile, tile) <= range) return true;
  walkToward(mind, view, k, tile, orders);
  return false;
}

/**
 * Walk to one of `spots` (a random one of the three nearest, so agents spread out), committed to it
 * until reached; once there, stay `waitTicks` before picking again (away from this one).
 */
export function goTo(mind: Mind, view: AgentView, k: WorldKnowledge, key: string, spots: Tile[], waitTicks: number, orders: Order[]) {
  const self = view.self!;
  const usable = spots.filter((t) => (mind.avoid.get(`spot:${t.x},${t.z}`) ?? -1) < view.tick);
  if (!mind.destination || mind.destination.key !== key) {
    const near = [...(usable.length ? usable : spots)].sort((a, b) => chebyshev(self.tile, a) - chebyshev(self.tile, b)).slice(0, 3);
    if (near.length === 0) {
      mind.stuck++;
      return;
    }
    mind.destination = { key, tile: near[Math.floor(mind.rng() * near.length)], arrivedTick: null };
  }
  const dest = mind.destination;
  if (chebyshev(self.tile, dest.tile) > 4) {
    walkToward(mind, view, k, dest.tile, orders);
    return;
  }
  dest.arrivedTick ??= view.tick;
  if (view.tick - dest.arrivedTick >= waitTicks) {
    mind.avoid.set(`spot:${dest.tile.x},${dest.tile.z}`, view.tick + waitTicks);
    mind.destination = null;
  }
}
