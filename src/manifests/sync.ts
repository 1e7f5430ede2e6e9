/**
 * The start-up fetch step: bring `${worldDir}/manifests` up to date from the asset host.
 *
 * - production / CI: always ask the host, conditionally (If-None-Match with the stored ETag), so
 *   only changed files are rewritten; an unreachable or failing host leaves the cache in use.
 * - development / test: fetch only when the required manifests are not all present locally.
 * - whatever the mode: if required manifests are still missing, try the fallback host.
 * - skip (SKIP_MANIFESTS): nothing is fetched.
 */
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import { EtagStore } from "./etags.js";
import { fetchManifest, type FetchResult } from "./fetch.js";
import { fileExists } from "./fsAtomic.js";
import {
  manifestDirOf,
  missingRequiredFiles,
  OPTIONAL_FILES,
  OPTIONAL_SPLIT_ITEM_FILES,
  REQUIRED_FILES,
  SINGLE_ITEMS_FILE,
  SPLIT_ITEM_FILES,
} from "./files.js";
import { discoverManifests } from "./readFiles.js";

export interface ManifestSyncOptions {
  /** e.g. ./world ; manifests live in `${worldDir}/manifests`. */
  worldDir: string;
  /** PUBLIC_CDN_URL; manifests are fetched from `${cdnUrl}/manifests/<relative path>`. */
  cdnUrl: string;
  /** The production asset host, used if required files are still missing. */
  fallbackCdnUrl: string;
  mode: "development" | "production" | "test";
  /** CI=true behaves like production for fetching (always conditional fetch). */
  ci: boolean;
  /** SKIP_MANIFESTS=true: no fetching and no validation; what is there is loaded leniently. */
  skip: boolean;
  logger: Logger;
  /** Injectable for tests; the global fetch by default. */
  fetchImpl?: typeof fetch;
  /** Per-request timeout, 5000 ms by default. */
  timeoutMs?: number;
  /** The feature folders' own manifest files (WorldFeature.manifests), fetched as optional files. */
  featureFiles?: readonly string[];
}

export interface SyncReport {
  /** skipped: SKIP_MANIFESTS; local: development with local manifests, no request; fetched: the host was asked. */
  action: "skipped" | "local" | "fetched";
  manifestDir: string;
  /** Hosts asked, in order (the fallback host last, when it was needed). */
  hosts: string[];
  fallbackUsed: boolean;
  /** A host could not be reached at all (its files were served from the cache). */
  unreachable: string[];
  updated: string[];
  notModified: string[];
  /** Kept from the cache because the host failed for them. */
  cached: string[];
  notFound: string[];
  /** Required files still missing after every attempt (loading will stop on them). */
  missingRequired: string[];
  requests: number;
  warnings: string[];
}

const CONCURRENCY = 8;

async function runPool<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  });
  await Promise.all(workers);
}

function normalizeBase(url: string): string {
  return url.trim().replace(/\/+$/, "");
}

class HostSync {
  constructor(
    private readonly opts: ManifestSyncOptions,
    private readonly report: SyncReport,
    private readonly etags: EtagStore,
    private readonly baseUrl: string,
  ) {}

  private get log(): Logger {
    return this.opts.logger;
  }

  private warn(message: string): void {
    this.report.warnings.push(message);
    this.log.warn(message);
  }

  /** Fetch one file and account for the outcome. */
  async one(rel: string, required: boolean, probe = false): Promise<FetchResult> {
    const dir = this.report.manifestDir;
    this.report.requests++;
    const result = await fetchManifest({
      baseUrl: this.baseUrl,
      rel,
      manifestDir: dir,
      etag: this.etags.get(rel, this.baseUrl),
      fetchImpl: this.opts.fetchImpl ?? fetch,
      timeoutMs: this.opts.timeoutMs ?? 5000,
    });
    const r = this.report;
    switch (result.status) {
      case "updated":
        this.etags.set(rel, this.baseUrl, result.etag);
        r.updated.push(rel);
        this.log.info(`manifest ${rel}: updated`);
        break;
      case "not-modified":
        r.notModified.push(rel);
        this.log.info(`manifest ${rel}: 304 not modified`);
        break;
      case "not-found":
        r.notFound.push(rel);
        if (required) {
          this.warn(`manifest ${rel}: not found on ${this.baseUrl}`);
        } else {
          this.log.debug(`manifest ${rel}: not on ${this.baseUrl} (optional)`);
          // Fetched from this host before and now gone upstream: drop the stale copy.
          if (this.etags.cameFrom(rel, this.baseUrl)) {
            await rm(path.join(dir, rel), { force: true });
            this.etags.delete(rel);
          }
        }
        break;
      case "unreachable":
        if (probe) break; // the caller reports the host as down
        await this.keepCache(rel, result);
        break;
      case "server-error":
      case "bad-content":
        await this.keepCache(rel, result);
        break;
    }
    return result;
  }

  private async keepCache(rel: string, result: FetchResult): Promise<void> {
    const why = result.status === "bad-content" ? `served invalid JSON (${result.error})` : (result.error ?? result.status);
    const cached = !result.written && (await fileExists(path.join(this.report.manifestDir, rel)));
    if (cached) {
      this.report.cached.push(rel);
      this.warn(`manifest ${rel}: ${this.baseUrl} ${why}; using the cached copy`);
      this.log.info(`manifest ${rel}: cached`);
    } else {
      this.warn(`manifest ${rel}: ${this.baseUrl} ${why}; no cached copy`);
    }
  }

  /** Ask this host for every manifest: npcs.json first (if the host is down, stop there), then the rest. */
  async run(): Promise<void> {
    const probe = await this.one(REQUIRED_FILES[0], true, true);
    if (probe.status === "unreachable") {
      this.report.unreachable.push(this.baseUrl);
      this.warn(`manifest host ${this.baseUrl} unreachable (${probe.error}); using the cached manifests`);
      for (const rel of await discoverManifests(this.report.manifestDir)) {
        if (!this.report.cached.includes(rel)) this.report.cached.push(rel);
        this.log.info(`manifest ${rel}: cached`);
      }
      return;
    }
    // The split item layout is tried first; a 404 for its first file means the host has items.json.
    const first = await this.one(SPLIT_ITEM_FILES[0], false);
    let itemFiles: string[];
    let requiredItems: string[];
    const localSplit = (await discoverManifests(this.report.manifestDir)).has(SPLIT_ITEM_FILES[0]);
    if (first.status === "not-found" || (first.status !== "updated" && first.status !== "not-modified" && !localSplit)) {
      itemFiles = [SINGLE_ITEMS_FILE];
      requiredItems = [SINGLE_ITEMS_FILE];
    } else {
      itemFiles = [...SPLIT_ITEM_FILES.slice(1), ...OPTIONAL_SPLIT_ITEM_FILES];
      requiredItems = SPLIT_ITEM_FILES.slice(1);
    }
    const required = new Set<string>([...REQUIRED_FILES.slice(1), ...requiredItems]);
    const rest = [...new Set([...REQUIRED_FILES.slice(1), ...itemFiles, ...OPTIONAL_FILES, ...(this.opts.featureFiles ?? [])])];
    await runPool(rest, CONCURRENCY, async (rel) => {
      await this.one(rel, required.has(rel));
    });
  }
}

export async function syncManifests(opts: ManifestSyncOptions): Promise<SyncReport> {
  const manifestDir = manifestDirOf(opts.worldDir);
  const report: SyncReport = {
    action: "skipped",
    manifestDir,
    hosts: [],
    fallbackUsed: false,
    unreachable: [],
    updated: [],
    notModified: [],
    cached: [],
    notFound: [],
    missingRequired: [],
    requests: 0,
    warnings: [],
  };
  const log = opts.logger;
  if (opts.skip) {
    log.info({ manifestDir }, "SKIP_MANIFESTS: manifests are not fetched or validated");
    return report;
  }
  await mkdir(manifestDir, { recursive: true });

  const alwaysFetch = opts.mode === "production" || opts.ci;
  const localMissing = missingRequiredFiles(await discoverManifests(manifestDir));
  if (!alwaysFetch && localMissing.length === 0) {
    report.action = "local";
    log.info({ manifestDir }, `manifests: using the local copies (${opts.mode}); nothing fetched`);
    return report;
  }

  report.action = "fetched";
  const etags = await EtagStore.open(opts.worldDir);
  const primary = normalizeBase(opts.cdnUrl);
  try {
    if (primary) {
      report.hosts.push(primary);
      await new HostSync(opts, report, etags, primary).run();
    }
    let missing = missingRequiredFiles(await discoverManifests(manifestDir));
    const fallback = normalizeBase(opts.fallbackCdnUrl);
    if (missing.length > 0 && fallback && fallback !== primary) {
      const line = `required manifests missing (${missing.join(", ")}); trying the fallback host ${fallback}`;
      report.warnings.push(line);
      log.warn(line);
      report.hosts.push(fallback);
      report.fallbackUsed = true;
      await new HostSync(opts, report, etags, fallback).run();
      missing = missingRequiredFiles(await discoverManifests(manifestDir));
    }
    report.missingRequired = missing;
  } finally {
    await etags.save();
  }
  log.info(
    {
      updated: report.updated.length,
      notModified: report.notModified.length,
      cached: report.cached.length,
      hosts: report.hosts,
    },
    "manifests synced",
  );
  return report;
}
