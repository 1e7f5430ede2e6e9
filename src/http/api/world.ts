import { Router } from "express";
import { z } from "zod";
import type { ServerContext } from "../../context.js";
import { buildTileMap, footprintRect } from "../../game/tileMap.js";
import { tileOf } from "../../manifests/shapes.js";
import type { GameData } from "../../manifests/gameData.js";
import { bodyOfData } from "../gameDataBody.js";
import type { WorldMapBody } from "../../protocol/index.js";
import { worldIdOption } from "../../worldSpecs.js";
import { HttpError } from "../errors.js";

/**
 * The world's ground plan, as the world builds it from the game data: the tile bounds, the blocked
 * tiles as a bitset (base64; bit `(z - minZ) * width + (x - minX)`, least significant bit first),
 * the buildings' footprints and the areas. What a client draws the map from.
 */
export function worldMap(data: GameData): WorldMapBody {
  const map = buildTileMap(data);
  return {
    bounds: map.bounds,
    width: map.width,
    depth: map.depth,
    blocked: Buffer.from(map.toBytes()).toString("base64"),
    buildings: data.buildings.map((b) => ({
      id: b.id,
      name: b.name ?? b.type ?? b.id,
      type: b.type ?? null,
      ...footprintRect(b.position, b.footprint, b.rotation),
    })),
    areas: [...data.worldAreas.values()].map((a) => ({ id: a.id, name: a.name, bounds: a.bounds, safeZone: a.safeZone, pvpEnabled: a.pvpEnabled })),
    spawn: data.spawn ? { x: Math.round(data.spawn.position.x), z: Math.round(data.spawn.position.z) } : null,
    npcs: [...data.worldAreas.values()].flatMap((a) => [
      ...a.npcs.map((n) => ({ npcId: n.npcId, ...tileOf(n.position), radius: 0 })),
      ...a.mobSpawns.map((m) => ({ npcId: m.mobId, ...tileOf(m.position), radius: m.spawnRadius })),
    ]),
    resources: [...data.worldAreas.values()].flatMap((a) => a.resources.map((r) => ({ resourceId: r.resourceId, skill: r.skill, ...tileOf(r.position) }))),
  };
}

/** `?world=<id>` of GET /api/v1/world (read by worldIdOption; here for the API document). */
export const WorldQuery = z.object({
  world: z
    .string()
    .regex(/^\d{1,4}$/)
    .optional(),
});

/**
 * /api/v1/worlds: the worlds offered, how full each is and whether it runs; /api/v1/world: a
 * snapshot of one live world (`?world=<id>`, the first world by default); /api/v1/world/areas: the
 * areas of the world data; /api/v1/world/map: the ground plan (worldMap). Public.
 */
export function worldRoutes(ctx: ServerContext) {
  const router = Router();
  const plan = bodyOfData((data) => ({ success: true, ...worldMap(data) }));

  router.get("/api/v1/worlds", async (_req, res) => {
    const worlds = await ctx.world.worlds();
    res.json({
      success: true,
      worlds: worlds.map((w) => ({
        id: w.id,
        name: w.name,
        players: w.players,
        capacity: w.capacity,
        status: w.status,
        full: w.full,
        roomId: w.roomId,
        processId: w.processId,
      })),
    });
  });

  router.get("/api/v1/world", async (req, res) => {
    let worldId: number | undefined;
    try {
      worldId = worldIdOption(req.query.world);
    } catch (err) {
      throw new HttpError(400, "INVALID_WORLD", (err as Error).message);
    }
    if (worldId !== undefined && !ctx.config.worlds.some((w) => w.id === worldId)) throw new HttpError(404, "WORLD_NOT_FOUND", `There is no world ${worldId}`);
    const w = await ctx.world.summary(worldId);
    if (!w) return res.status(503).json({ success: false, error: { code: "WORLD_UNAVAILABLE", message: "The world is not running" } });
    const none = () => ({ npcs: { alive: 0, dead: 0 }, resources: { available: 0, depleted: 0 } });
    res.json({
      success: true,
      world: w.world,
      tick: w.tick,
      onlinePlayers: w.players.map((p) => ({
        id: p.id,
        name: p.name,
        isAgent: p.isAgent,
        combatLevel: p.combatLevel,
        position: { x: p.tile.x, y: 0, z: p.tile.z },
      })),
      areas: [...ctx.gameData.worldAreas.values()].map((a) => {
        const { npcs, resources } = w.areas[a.id] ?? none();
        return { id: a.id, name: a.name, npcs, resources };
      }),
    });
  });

  router.get("/api/v1/world/areas", (_req, res) => {
    res.json({
      success: true,
      areas: [...ctx.gameData.worldAreas.values()].map((a) => ({
        id: a.id,
        name: a.name,
        description: a.description ?? null,
        group: a.group,
        isStarterTown: a.isStarterTown,
        difficultyLevel: a.difficultyLevel,
        bounds: a.bounds,
        biomeType: a.biomeType ?? null,
        safeZone: a.safeZone,
        pvpEnabled: a.pvpEnabled,
        spawnPoint: a.spawnPoint ?? null,
      })),
    });
  });
  router.get("/api/v1/world/map", (_req, res) => {
    res.type("application/json").set("Cache-Control", "public, max-age=300").send(plan(ctx.gameData));
  });
  return router;
}
