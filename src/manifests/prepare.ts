/** What start-up calls: bring the manifests up to date, then load them. */
import type { GameData } from "./gameData.js";
import { manifestDirOf } from "./files.js";
import { loadGameData } from "./load.js";
import { syncManifests, type ManifestSyncOptions } from "./sync.js";

export async function prepareGameData(opts: ManifestSyncOptions): Promise<GameData> {
  await syncManifests(opts);
  return loadGameData(manifestDirOf(opts.worldDir), opts.logger, { validate: !opts.skip });
}
