/**
 * Build time: download the models, music and world files the manifests reference into the public
 * directory, under the same relative paths the asset host uses, so the web client can load them
 * from the game server. Files already present are skipped; a failure is reported per file and
 * never stops the build.
 *
 * References recognised:
 *   "asset://models/<file>"        -> models/<file>          (.glb, .vrm, ...)
 *   "asset://audio/music/<c>/<f>"  -> audio/music/<c>/<f>    (music.json)
 *   "asset://music/<c>/<f>"        -> audio/music/<c>/<f>    (older music.json)
 *   "asset://world/<file>"         -> world/<file>
 *   vegetation.json "model": "<file>" (relative) -> models/<file>
 * Icons and other references are left to the asset host.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import { fileExists, writeFileAtomic } from "./fsAtomic.js";
import { discoverManifests } from "./readFiles.js";

export interface DownloadAssetsOptions {
  manifestDir: string;
  publicDir: string;
  cdnUrl: string;
  logger: Logger;
  fetchImpl?: typeof fetch;
  /** Per-request timeout, 30 s by default (models can be large). */
  timeoutMs?: number;
  concurrency?: number;
}

export interface DownloadReport {
  /** Relative paths fetched this run. */
  downloaded: string[];
  /** Relative paths already in the public directory. */
  skipped: string[];
  failed: Array<{ path: string; reason: string }>;
}

const ASSET_PREFIX = "asset://";

/** Map one manifest string onto a public relative path, or undefined when it is not downloaded. */
export function assetPathOf(ref: string): string | undefined {
  if (!ref.startsWith(ASSET_PREFIX)) return undefined;
  const rel = ref.slice(ASSET_PREFIX.length).replace(/^\/+/, "");
  if (rel.startsWith("models/") || rel.startsWith("audio/music/") || rel.startsWith("world/")) return rel;
  if (rel.startsWith("music/")) return `audio/${rel}`;
  return undefined;
}

function collect(value: unknown, out: Set<string>): void {
  if (typeof value === "string") {
    const rel = assetPathOf(value);
    if (rel) out.add(rel);
  } else if (Array.isArray(value)) {
    for (const v of value) collect(v, out);
  } else if (value && typeof value === "object") {
    for (const v of Object.values(value)) collect(v, out);
  }
}

/** A relative path that stays inside the public directory. */
function isSafe(rel: string): boolean {
  if (rel.length === 0 || rel.includes("\\") || rel.includes("\0") || path.posix.isAbsolute(rel)) return false;
  return rel.split("/").every((seg) => seg !== ".." && seg !== "." && seg !== "");
}

/**
 * Every asset path the manifests of a directory reference, sorted. Unparseable manifests are
 * skipped with a warning (the loader reports them properly at start-up).
 */
export async function collectAssetPaths(manifestDir: string, logger: Logger): Promise<string[]> {
  const out = new Set<string>();
  for (const rel of await discoverManifests(manifestDir)) {
    let json: unknown;
    try {
      json = JSON.parse(await readFile(path.join(manifestDir, rel), "utf8"));
    } catch (err) {
      logger.warn({ manifest: rel }, `assets: cannot read ${rel}: ${(err as Error).message}`);
      continue;
    }
    collect(json, out);
    if (rel === "vegetation.json" && json && typeof json === "object") {
      const assets = (json as { assets?: unknown }).assets;
      for (const a of Array.isArray(assets) ? assets : []) {
        const model = (a as { model?: unknown } | null)?.model;
        if (typeof model === "string" && !model.startsWith(ASSET_PREFIX) && !/^[a-z]+:/i.test(model)) {
          out.add(`models/${model.replace(/^\/+/, "")}`);
        }
      }
    }
  }
  return [...out].sort();
}

async function downloadOne(opts: DownloadAssetsOptions, rel: string, report: DownloadReport): Promise<void> {
  if (!isSafe(rel)) {
    report.failed.push({ path: rel, reason: "unsafe path" });
    return;
  }
  const target = path.join(opts.publicDir, ...rel.split("/"));
  if (await fileExists(target)) {
    report.skipped.push(rel);
    return;
  }
  const url = `${opts.cdnUrl.replace(/\/+$/, "")}/${rel.split("/").map(encodeURIComponent).join("/")}`;
  try {
    const res = await (opts.fetchImpl ?? fetch)(url, { signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000) });
    if (res.status !== 200) {
      await res.body?.cancel().catch(() => undefined);
      report.failed.push({ path: rel, reason: `HTTP ${res.status}` });
      return;
    }
    const body = new Uint8Array(await res.arrayBuffer());
    await writeFileAtomic(target, body);
    report.downloaded.push(rel);
    opts.logger.debug({ asset: rel, bytes: body.length }, "asset downloaded");
  } catch (err) {
    const e = err as { name?: string; message?: string; cause?: { code?: string } };
    const reason = e.name === "TimeoutError" ? "timed out" : (e.cause?.code ?? e.message ?? String(err));
    report.failed.push({ path: rel, reason });
  }
}

export async function downloadAssets(opts: DownloadAssetsOptions): Promise<DownloadReport> {
  const report: DownloadReport = { downloaded: [], skipped: [], failed: [] };
  const paths = await collectAssetPaths(opts.manifestDir, opts.logger);
  let next = 0;
  const limit = Math.max(1, opts.concurrency ?? 6);
  await Promise.all(
    Array.from({ length: Math.min(limit, paths.length) }, async () => {
      while (next < paths.length) await downloadOne(opts, paths[next++]!, report);
    }),
  );
  for (const list of [report.downloaded, report.skipped]) list.sort();
  report.failed.sort((a, b) => a.path.localeCompare(b.path));
  for (const f of report.failed) opts.logger.warn({ asset: f.path }, `asset ${f.path}: ${f.reason}`);
  opts.logger.info({ downloaded: report.downloaded.length, skipped: report.skipped.length, failed: report.failed.length }, "assets downloaded");
  return report;
}
