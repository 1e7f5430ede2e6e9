/**
 * Game data: fetch (ETag) + cache + validate + index the world's manifests.
 *
 *   prepareGameData(opts)  start-up: syncManifests then loadGameData
 *   syncManifests(opts)    the fetch/cache step only
 *   loadGameData(dir, log) read + validate + index a manifest directory
 *   downloadAssets(opts)   build time: models and music the manifests reference
 */
export { ManifestError } from "./errors.js";
export { syncManifests, type ManifestSyncOptions, type SyncReport } from "./sync.js";
export { loadGameData, type LoadOptions } from "./load.js";
export { manifestSyncOptions, prepareGameData } from "./prepare.js";
export { downloadAssets, collectAssetPaths, type DownloadAssetsOptions, type DownloadReport } from "./assets.js";
export { ETAG_SIDECAR } from "./etags.js";
export { manifestDirOf, REQUIRED_FILES, OPTIONAL_FILES, SPLIT_ITEM_FILES, SINGLE_ITEMS_FILE } from "./files.js";
export { normalizeSkillName } from "./util.js";
export { findGatheringResource } from "./gameData.js";
export type * from "./gameData.js";
export type * from "./shapes.js";
export type { Recipe } from "./recipes.js";
export type { AmmoDef, PrayerDef, SpellDef } from "./combat.js";
