/**
 * Build step: `tsx src/manifests/downloadAssetsCli.ts [--public <dir>] [--world <dir>] [--cdn <url>] [--skip]`
 * Downloads the assets the world's manifests reference into the public directory. Settings come
 * from the command line, else from the configuration (PUBLIC_CDN_URL, WORLD, SKIP_ASSETS via
 * src/config.ts). Exits 0 even when some files fail: they are listed, the build goes on.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Logger } from "pino";
import { loadConfig } from "../config.js";
import { createLogger } from "../logger.js";
import { PUBLIC_DIR } from "../paths.js";
import { downloadAssets, type DownloadReport } from "./assets.js";
import { manifestDirOf } from "./files.js";

export interface AssetCliSettings {
  cdnUrl: string;
  worldDir: string;
  skip: boolean;
}

/**
 * The downloader's settings from an environment, through the one configuration parser. The
 * server-only production requirements (database, secrets) do not apply to a build step, so the
 * environment is read as development's for that purpose.
 */
export function readAssetEnv(env: NodeJS.ProcessEnv): AssetCliSettings {
  const config = loadConfig(env.NODE_ENV === "production" ? { ...env, NODE_ENV: "development" } : env);
  return { cdnUrl: config.publicCdnUrl, worldDir: config.world, skip: config.skipAssets };
}

export interface CliArgs {
  publicDir: string;
  worldDir?: string;
  cdnUrl?: string;
  skip: boolean;
}

export function parseArgs(argv: string[]): CliArgs {
  const args: CliArgs = { publicDir: PUBLIC_DIR, skip: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--public") args.publicDir = value();
    else if (a === "--world") args.worldDir = value();
    else if (a === "--cdn") args.cdnUrl = value();
    else if (a === "--skip") args.skip = true;
    else throw new Error(`unknown argument ${a}`);
  }
  return args;
}

/** Run with explicit settings; returns the report, or null when skipped. */
export async function runDownloadAssets(args: CliArgs, settings: AssetCliSettings, logger: Logger, fetchImpl?: typeof fetch): Promise<DownloadReport | null> {
  if (args.skip || settings.skip) {
    logger.info("SKIP_ASSETS: asset download skipped");
    return null;
  }
  const worldDir = path.resolve(args.worldDir ?? settings.worldDir);
  return downloadAssets({
    manifestDir: manifestDirOf(worldDir),
    publicDir: path.resolve(args.publicDir),
    cdnUrl: args.cdnUrl ?? settings.cdnUrl,
    logger,
    fetchImpl,
  });
}

async function main(): Promise<void> {
  const logger = createLogger({ level: "info" });
  const args = parseArgs(process.argv.slice(2));
  const report = await runDownloadAssets(args, readAssetEnv(process.env), logger);
  if (report && report.failed.length > 0) {
    logger.warn(`${report.failed.length} asset(s) could not be downloaded; the build continues`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err: unknown) => {
    console.error("asset download failed:", err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
