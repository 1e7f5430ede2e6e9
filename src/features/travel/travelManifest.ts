import { z } from "zod";
import type { Tile } from "../../game/types.js";
import type { World } from "../../game/world/World.js";
import { describeIssues } from "../../manifests/schemas.js";

/**
 * Where a world's carters and ferrymen take players: its `travel.json` manifest (optional; read
 * from the game data's files no other part models). `routes`: one per npc id (the npc's manifest
 * entry names the `travel` service, which is how clients know to offer "Travel-with"): its `id`,
 * the `name` of where it goes, the tile it puts the player on (`to`, walkable) and its `fare` in
 * coins (0: free). An entry that does not fit the schema, names an unknown npc or an npc without
 * the service, goes off the map or onto a blocked tile, or repeats an npc or an id, is skipped
 * with a warning in the log; so is an npc that names the service without a route.
 */
const routeSchema = z
  .object({
    id: z.string().min(1).max(100),
    npcId: z.string().min(1).max(128),
    name: z.string().min(1).max(100),
    to: z.object({ x: z.number().int(), z: z.number().int() }).loose(),
    fare: z.number().int().min(0).max(1_000_000),
  })
  .loose();
const fileSchema = z.object({ routes: z.array(z.unknown()).default([]) }).loose();

export interface Route {
  id: string;
  npcId: string;
  /** Where it goes, as the rider is told. */
  name: string;
  to: Tile;
  fare: number;
}

/** The service an npc's manifest entry names for clients to offer "Travel-with". */
export const TRAVEL_SERVICE = "travel";

/** Each world's routes, by the npc id that drives them. */
const routesOf = new WeakMap<World, Map<string, Route>>();

export const routesIn = (world: World): ReadonlyMap<string, Route> => routesOf.get(world) ?? new Map();

/** WorldFeature.reloaded: the routes the new data gives. */
export function reloadRoutes(world: World, scratch: World) {
  routesOf.set(world, new Map(routesIn(scratch)));
}

/** WorldFeature.populate: read the manifest. */
export function readRoutes(world: World) {
  const routes = new Map<string, Route>();
  const ids = new Set<string>();
  const warn = (message: string) => world.events.push({ kind: "contentWarning", message: `travel.json: ${message}; skipped` });
  const raw = world.data.extras["travel"];
  const file = raw === undefined ? undefined : fileSchema.safeParse(raw);
  if (file && !file.success) warn("not an object with a routes list");
  for (const [i, entry] of (file?.success ? file.data.routes : []).entries()) {
    const parsed = routeSchema.safeParse(entry);
    if (!parsed.success) {
      warn(`route ${i}: ${describeIssues(parsed.error)}`);
      continue;
    }
    const r = parsed.data;
    const npc = world.data.npcs.get(r.npcId);
    if (!npc) warn(`route ${r.id}: no npc ${r.npcId}`);
    else if (!npc.services.includes(TRAVEL_SERVICE)) warn(`route ${r.id}: npc ${r.npcId} does not name the travel service`);
    else if (routes.has(r.npcId) || ids.has(r.id)) warn(`route ${r.id}: its id or its npc ${r.npcId} has a route already`);
    else if (!world.map.inBounds(r.to.x, r.to.z) || world.map.isBlocked(r.to.x, r.to.z)) warn(`route ${r.id}: its destination is outside the map or blocked`);
    else {
      routes.set(r.npcId, { id: r.id, npcId: r.npcId, name: r.name, to: { x: r.to.x, z: r.to.z }, fare: r.fare });
      ids.add(r.id);
    }
  }
  for (const npc of world.data.npcs.values())
    if (npc.services.includes(TRAVEL_SERVICE) && !routes.has(npc.id)) warn(`npc ${npc.id} names the travel service but has no route`);
  routesOf.set(world, routes);
}
