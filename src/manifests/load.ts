/**
 * Reading a manifest directory into GameData: find the files, parse them, validate record by
 * record, check cross references, index. Missing required files, unparseable JSON and a required
 * file with the wrong top-level shape are fatal (ManifestError); everything else is a warning.
 */
import { buildAmmunition, buildPrayers, buildSpells } from "./combat.js";
import { createHash } from "node:crypto";
import type { Logger } from "pino";
import { LoadContext } from "./context.js";
import { checkCrossReferences } from "./crossrefs.js";
import { ManifestError } from "./errors.js";
import { extrasKey, GATHERING_FILES, itemFilesFor, itemLayoutOf, missingRequiredFiles, REQUIRED_FILES, SINGLE_ITEMS_FILE } from "./files.js";
import type { GameData, GatheringSkill } from "./gameData.js";
import type { Recipe } from "./recipes.js";
import { emptyGathering, readGatheringFile, readLegacyResources } from "./gathering.js";
import { buildItems } from "./items.js";
import { buildBuildings, buildMusic, buildSkillUnlocks, buildStarterKit, buildStations, buildTemplates, buildTools, buildVegetation } from "./misc.js";
import { buildNpcs } from "./npcs.js";
import { buildQuests } from "./quests.js";
import { discoverManifests, readManifest } from "./readFiles.js";
import { readRecipeFile } from "./recipes.js";
import { buildBiomes, buildStores, buildWorldAreas } from "./world.js";

export interface LoadOptions {
  /** false: lenient load (SKIP_MANIFESTS) — nothing is fatal and references are not checked. Default true. */
  validate?: boolean;
}

/** Files read into typed fields; every other manifest lands in `extras`. */
const MODELLED = new Set<string>([
  ...REQUIRED_FILES,
  "mobs.json",
  "resources.json",
  "tools.json",
  "skill-unlocks.json",
  "quests.json",
  "starter-kit.json",
  "character-templates.json",
  "buildings.json",
  "music.json",
  "stations.json",
  "vegetation.json",
  "prayers.json",
  "combat-spells.json",
  "ammunition.json",
]);

/**
 * Parse every present file; unparseable JSON is fatal in a strict load (every such file is named
 * in the one error) and skipped in a lenient one. The version is a hash of the files as read.
 */
async function parseAll(ctx: LoadContext, files: string[]): Promise<{ parsed: Map<string, unknown>; version: string }> {
  const parsed = new Map<string, unknown>();
  const hash = createHash("sha256");
  const failed: ManifestError[] = [];
  for (const rel of files) {
    try {
      parsed.set(rel, await readManifest(ctx.dir, rel, (text) => hash.update(`${rel}\0${text}\0`)));
    } catch (err) {
      if (!(err instanceof ManifestError)) throw err;
      if (ctx.validate) failed.push(err);
      else ctx.warn(rel, `${err.message}; file skipped`);
    }
  }
  if (failed.length > 0) {
    throw new ManifestError(
      failed[0]!.file,
      failed[0]!.message,
      failed.slice(1).map((e) => e.message),
    );
  }
  return { parsed, version: hash.digest("hex").slice(0, 16) };
}

export async function loadGameData(manifestDir: string, logger: Logger, opts: LoadOptions = {}): Promise<GameData> {
  const ctx = new LoadContext(manifestDir, logger, opts.validate ?? true);
  const present = await discoverManifests(manifestDir);

  const missing = missingRequiredFiles(present);
  if (missing.length > 0) {
    const first = missing[0]!;
    const what = first === SINGLE_ITEMS_FILE ? `${SINGLE_ITEMS_FILE} (or the split set items/*.json)` : first;
    const message = `required manifest ${what} is missing from ${manifestDir}` + (missing.length > 1 ? ` (also missing: ${missing.slice(1).join(", ")})` : "");
    if (ctx.validate)
      throw new ManifestError(
        first,
        message,
        missing.slice(1).map((f) => `required manifest ${f} is missing from ${manifestDir}`),
      );
    for (const file of missing) ctx.warn(file, "required manifest is missing; loading without it");
  }

  const layout = itemLayoutOf(present) ?? "single";
  const itemFiles = itemFilesFor(layout, present).filter((f) => present.has(f));
  if (layout === "split" && present.has(SINGLE_ITEMS_FILE)) {
    logger.debug({ manifest: SINGLE_ITEMS_FILE }, "items/ present; items.json ignored");
  }
  const toRead = [...present].filter((f) => f !== SINGLE_ITEMS_FILE || layout === "single");
  const { parsed: json, version } = await parseAll(ctx, toRead);
  const get = (rel: string) => json.get(rel);
  const has = (rel: string) => json.has(rel);

  const items = buildItems(
    ctx,
    itemFiles.filter(has).map((f) => [f, get(f)] as [string, unknown]),
  );
  const npcs = buildNpcs(
    ctx,
    [
      ...(has("npcs.json") ? [["npcs.json", get("npcs.json"), { required: true, legacyMobs: false }] as const] : []),
      ...(has("mobs.json") ? [["mobs.json", get("mobs.json"), { required: false, legacyMobs: true }] as const] : []),
    ].map(([f, v, o]) => [f, v, o]),
  );

  const gathering = emptyGathering();
  for (const [skill, file] of Object.entries(GATHERING_FILES) as Array<[GatheringSkill, string]>) {
    if (has(file)) readGatheringFile(ctx, gathering, skill, file, get(file));
  }
  if (has("resources.json")) readLegacyResources(ctx, gathering, "resources.json", get("resources.json"));

  const recipes: Record<string, Recipe[]> = {};
  for (const file of toRead.filter((f) => f.startsWith("recipes/"))) {
    if (has(file)) readRecipeFile(ctx, recipes, file, get(file));
  }

  const opt = <T>(file: string, build: (c: LoadContext, f: string, j: unknown) => T, empty: T): T => (has(file) ? build(ctx, file, get(file)) : empty);

  const draft = {
    dir: manifestDir,
    itemLayout: layout,
    items,
    npcs,
    worldAreas: has("world-areas.json") ? buildWorldAreas(ctx, get("world-areas.json")) : new Map(),
    biomes: has("biomes.json") ? buildBiomes(ctx, get("biomes.json")) : new Map(),
    stores: has("stores.json") ? buildStores(ctx, get("stores.json")) : new Map(),
    gathering,
    recipes,
    skillUnlocks: opt("skill-unlocks.json", buildSkillUnlocks, {}),
    tools: opt("tools.json", buildTools, new Map()),
    quests: opt("quests.json", buildQuests, new Map()),
    prayers: opt("prayers.json", buildPrayers, new Map()),
    spells: opt("combat-spells.json", buildSpells, new Map()),
    ammunition: opt("ammunition.json", buildAmmunition, new Map()),
    starterKit: opt("starter-kit.json", buildStarterKit, []),
    templates: opt("character-templates.json", buildTemplates, new Map()),
    buildings: opt("buildings.json", buildBuildings, []),
    music: opt("music.json", buildMusic, []),
    stations: opt("stations.json", buildStations, new Map()),
    vegetation: opt("vegetation.json", buildVegetation, new Map()),
    extras: {} as Record<string, unknown>,
  } satisfies Omit<GameData, "warnings" | "files" | "spawn" | "version">;

  for (const [rel, value] of json) {
    const isModelled = MODELLED.has(rel) || itemFiles.includes(rel) || rel.startsWith("recipes/") || (Object.values(GATHERING_FILES) as string[]).includes(rel);
    if (!isModelled) draft.extras[extrasKey(rel)] = value;
  }

  checkCrossReferences(ctx, draft, { vegetationPresent: has("vegetation.json"), stationsPresent: has("stations.json") });

  const town = [...draft.worldAreas.values()].find((a) => a.isStarterTown && a.spawnPoint);
  const data: GameData = {
    ...draft,
    spawn: town?.spawnPoint ? { areaId: town.id, position: town.spawnPoint } : null,
    version,
    warnings: ctx.warnings,
    files: [...json.keys()].sort(),
  };
  logger.info(
    {
      dir: manifestDir,
      items: data.items.size,
      npcs: data.npcs.size,
      areas: data.worldAreas.size,
      warnings: data.warnings.length,
    },
    `game data loaded: ${data.files.length} manifests, ${data.warnings.length} warnings`,
  );
  return data;
}
