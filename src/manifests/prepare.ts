/** What start-up calls: bring the manifests up to date, then load them. */
import type { Logger } from "pino";
import { PRODUCTION_CDN_URL, type Config } from "../config.js";
import type { GameData } from "./gameData.js";
import { manifestDirOf } from "./files.js";
import { loadGameData } from "./load.js";
import { syncManifests, type ManifestSyncOptions } from "./sync.js";

export async function prepareGameData(opts: ManifestSyncOptions): Promise<GameData> {
  await syncManifests(opts);
  return loadGameData(manifestDirOf(opts.worldDir), opts.logger, { validate: !opts.skip });
}

/**
 * How the configuration asks for the manifests: start-up and a content reload read them alike.
 * `featureFiles`: the feature folders' own files (WorldFeature.manifests), fetched with the rest.
 */
export function manifestSyncOptions(config: Config, logger: Logger, featureFiles: readonly string[] = []): ManifestSyncOptions {
  return {
    worldDir: config.world,
    cdnUrl: config.publicCdnUrl,
    fallbackCdnUrl: PRODUCTION_CDN_URL,
    mode: config.nodeEnv,
    ci: config.ci,
    skip: config.skipManifests,
    logger,
    featureFiles,
  };
}
