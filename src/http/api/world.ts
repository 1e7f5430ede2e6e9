import { Router } from "express";
import type { ServerContext } from "../../context.js";
import { route } from "./access.js";
import { liveWorld } from "../worldAccess.js";

/** The area an npc or resource was placed by: its id is `npc:<area>:…` / `res:<area>:…`. */
const areaOf = (id: string) => id.split(":")[1] ?? "";

/** /api/v1/world: a snapshot of the live world; /api/v1/world/areas: the areas of the world data. Public. */
export function worldRoutes(ctx: ServerContext) {
  const router = Router();

  router.get(
    "/api/v1/world",
    route(async (_req, res) => {
      const room = await liveWorld();
      if (!room) return res.status(503).json({ success: false, error: { code: "WORLD_UNAVAILABLE", message: "The world is not running" } });
      const w = room.world;
      const areas = new Map<string, { id: string; name: string; npcs: { alive: number; dead: number }; resources: { available: number; depleted: number } }>();
      for (const a of ctx.gameData.worldAreas.values()) areas.set(a.id, { id: a.id, name: a.name, npcs: { alive: 0, dead: 0 }, resources: { available: 0, depleted: 0 } });
      for (const npc of w.npcs.values()) {
        const a = areas.get(areaOf(npc.id));
        if (a) a.npcs[npc.deadUntilTick != null ? "dead" : "alive"]++;
      }
      for (const r of w.resources.values()) {
        const a = areas.get(areaOf(r.id));
        if (a) a.resources[r.depleted ? "depleted" : "available"]++;
      }
      res.json({
        success: true,
        tick: w.tick,
        onlinePlayers: [...w.players.values()].map((p) => ({ id: p.id, name: p.name, isAgent: p.isAgent, combatLevel: p.combatLevel, position: { x: p.tile.x, y: 0, z: p.tile.z } })),
        areas: [...areas.values()],
      });
    }),
  );

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
