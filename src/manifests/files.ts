/**
 * Which manifest files exist, which are required, and how the item files are laid out.
 * Paths are relative to the manifest directory and always use forward slashes.
 */

/** Required in every world, whatever the item layout. */
export const REQUIRED_FILES = ["npcs.json", "world-areas.json", "biomes.json", "stores.json"] as const;

/** The current (split) item layout: these five must all be present. */
export const SPLIT_ITEM_FILES = ["items/weapons.json", "items/tools.json", "items/resources.json", "items/food.json", "items/misc.json"] as const;

/** Further item files of the split layout, loaded when present. */
export const OPTIONAL_SPLIT_ITEM_FILES = ["items/armor.json", "items/ammunition.json", "items/runes.json"] as const;

/** The older layout: every item in one file. */
export const SINGLE_ITEMS_FILE = "items.json";

export const GATHERING_FILES = {
  woodcutting: "gathering/woodcutting.json",
  mining: "gathering/mining.json",
  fishing: "gathering/fishing.json",
} as const;

export const RECIPE_FILES = [
  "recipes/cooking.json",
  "recipes/crafting.json",
  "recipes/firemaking.json",
  "recipes/fletching.json",
  "recipes/runecrafting.json",
  "recipes/smelting.json",
  "recipes/smithing.json",
  "recipes/tanning.json",
] as const;

/** Optional files the fetcher asks the host for (a 404 for any of them is normal). */
export const OPTIONAL_FILES = [
  "ammunition.json",
  "resources.json",
  "tools.json",
  "music.json",
  "vegetation.json",
  "buildings.json",
  "prayers.json",
  "stations.json",
  "skill-unlocks.json",
  "tier-requirements.json",
  "runes.json",
  "combat-spells.json",
  "quests.json",
  "lod-settings.json",
  "model-bounds.json",
  "starter-kit.json",
  "character-templates.json",
  ...Object.values(GATHERING_FILES),
  ...RECIPE_FILES,
  // the older format
  "mobs.json",
  "zones.json",
  "banks.json",
  "avatars.json",
  "asset-requirements.json",
  "batch-generation.json",
] as const;

/** Sub-directories of the manifest directory that hold manifests. */
export const MANIFEST_SUBDIRS = ["items", "gathering", "recipes"] as const;

export type ItemLayout = "split" | "single";

/** The item layout a set of present files uses, or null when neither layout is there. */
export function itemLayoutOf(present: ReadonlySet<string>): ItemLayout | null {
  if (SPLIT_ITEM_FILES.some((f) => present.has(f))) return "split";
  if (present.has(SINGLE_ITEMS_FILE)) return "single";
  return null;
}

/** The item files to read for a layout, in load order. */
export function itemFilesFor(layout: ItemLayout, present: ReadonlySet<string>): string[] {
  if (layout === "single") return [SINGLE_ITEMS_FILE];
  const extra = [...present].filter((f) => f.startsWith("items/") && !(SPLIT_ITEM_FILES as readonly string[]).includes(f));
  return [...SPLIT_ITEM_FILES, ...extra.sort()];
}

/**
 * The required files missing from a set of present files. When no item file is present at all
 * the single-file name is reported (the split set is tried first by the fetcher, but either will do).
 */
export function missingRequiredFiles(present: ReadonlySet<string>): string[] {
  const missing: string[] = REQUIRED_FILES.filter((f) => !present.has(f));
  const layout = itemLayoutOf(present);
  if (layout === null) missing.push(SINGLE_ITEMS_FILE);
  else if (layout === "split") missing.push(...SPLIT_ITEM_FILES.filter((f) => !present.has(f)));
  return missing;
}

/** The manifest directory of a world directory. */
export function manifestDirOf(worldDir: string): string {
  return `${worldDir.replace(/[\\/]+$/, "")}/manifests`;
}

/** A manifest file name without its extension, used as the key of `GameData.extras`. */
export function extrasKey(rel: string): string {
  return rel.replace(/\.json$/, "");
}
