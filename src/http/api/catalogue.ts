import { Router } from "express";
import type { GameData } from "../../manifests/gameData.js";
import { bodyOfData } from "../gameDataBody.js";
import { PRODUCTION_KINDS, type CatalogueBody } from "../../protocol/index.js";

/** The recipe kinds the catalogue lists: the production kinds, and cooking and firemaking (what a raw food or a log is for). */
const CATALOGUE_RECIPE_KINDS = [...PRODUCTION_KINDS, "cooking", "firemaking"] as const;

/**
 * What a client names and offers from the game data: every item (name, kind, worn slot, value,
 * what eating heals), the npcs (whether they fight or talk, and their services: bank, store, ...), the spells and prayers with their levels, and the recipes by kind:
 * those `production:make` plays, and cooking's and firemaking's (raw food cooked at a fire, logs lit). Built once from the loaded data: the server's own definitions, never the raw files.
 */
export function catalogue(data: GameData): CatalogueBody {
  return {
    items: [...data.items.values()].map((i) => ({
      id: i.id,
      name: i.name,
      type: i.type,
      stackable: i.stackable,
      tradeable: i.tradeable,
      value: i.value,
      equipSlot: i.equipSlot ?? null,
      healAmount: i.healAmount ?? null,
      lampXp: i.lampXp ?? null,
      prayerXp: i.prayerXp ?? null,
      examine: i.examine ?? i.description ?? null,
    })),
    npcs: [...data.npcs.values()].map((n) => ({
      id: n.id,
      name: n.name,
      level: n.level,
      attackable: n.combat.attackable,
      talks: n.dialogue !== undefined,
      services: n.services,
      examine: n.description ?? null,
    })),
    resources: (["woodcutting", "mining", "fishing"] as const).flatMap((skill) =>
      [...data.gathering[skill].values()].map((r) => ({
        id: r.id,
        name: r.name,
        skill,
        level: r.levelRequired,
        examine: text(r.raw.examine),
        yields: r.yields.map((y) => y.itemId),
      })),
    ),
    stations: [...data.stations.values()].map((s) => ({ type: s.type, name: s.name, examine: text(s.raw.examine) })),
    spells: [...data.spells.values()].map((s) => ({ id: s.id, name: s.name, level: s.level, maxHit: s.baseMaxHit, runes: s.runes })),
    prayers: [...data.prayers.values()].map((p) => ({ id: p.id, name: p.name, level: p.level, conflicts: p.conflicts })),
    music: data.music.map((m) => ({
      id: m.id,
      name: m.name,
      category: m.category,
      mood: text(m.raw.mood),
      seconds: typeof m.raw.duration === "number" && m.raw.duration > 0 ? m.raw.duration : null,
    })),
    recipes: Object.fromEntries(
      CATALOGUE_RECIPE_KINDS.map((kind) => [
        kind,
        (data.recipes[kind] ?? []).map((r) => ({
          id: r.id,
          skill: r.skill,
          level: r.level,
          xp: r.xp,
          inputs: r.inputs,
          outputs: r.outputs,
          station: r.station ?? null,
        })),
      ]),
    ),
  };
}

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/** GET /api/v1/catalogue: the catalogue above. Public. */
export function catalogueRoutes(data: () => GameData) {
  const router = Router();
  const body = bodyOfData((d) => ({ success: true, ...catalogue(d) }));
  router.get("/api/v1/catalogue", (_req, res) => {
    res.type("application/json").set("Cache-Control", "public, max-age=300").send(body(data()));
  });
  return router;
}
