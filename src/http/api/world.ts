import { Router } from "express";
import type { ServerContext } from "../../context.js";

/** /api/v1/world: a snapshot of the live world; /api/v1/world/areas: the areas of the world data. Public. */
export function worldRoutes(ctx: ServerContext) {
  const router = Router();

  router.get("/api/v1/world", async (_req, res) => {
    const w = await ctx.world.summary();
    if (!w) return res.status(503).json({ success: false, error: { code: "WORLD_UNAVAILABLE", message: "The world is not running" } });
    const none = () => ({ npcs: { alive: 0, dead: 0 }, resources: { available: 0, depleted: 0 } });
    res.json({
      success: true,
      tick: w.tick,
      onlinePlayers: w.players.map((p) => ({
        id: p.id,
        name: p.name,
        isAgent: p.isAgent,
        combatLevel: p.combatLevel,
        position: { x: p.tile.x, y: 0, z: p.tile.z },
      })),
      areas: [...ctx.gameData.worldAreas.values()].map((a) => {
        const { npcs, resources } = w.areas.get(a.id) ?? none();
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
  return router;
}
