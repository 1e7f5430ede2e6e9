/**
 * Shared by the manifest tests: repository paths, a logger that records what it is told,
 * temporary world directories.
 */
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import pino, { type Logger } from "pino";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const DEFAULT_MANIFESTS = path.join(REPO_ROOT, "world", "manifests");
/** The real game's published manifests: COMPAT_DIR, or a shared/compat folder beside the repository. */
export const COMPAT_DIR = path.resolve(REPO_ROOT, process.env.COMPAT_DIR ?? "../shared/compat");
export const COMPAT_2026 = path.join(COMPAT_DIR, "hyperscape-manifests");
export const COMPAT_2025 = path.join(COMPAT_DIR, "hyperscape-manifests-2025");

/** Fails (never skips) when the compatibility corpus is not where CI puts it. */
export function requireCompat(dir: string): void {
  if (!existsSync(dir)) {
    throw new Error(`compatibility corpus not found at ${dir} (set COMPAT_DIR, or put it at ../shared/compat beside the repository)`);
  }
}

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export interface CapturedLogger {
  logger: Logger;
  lines: LogLine[];
  /** Messages logged at warn or above. */
  warnings(): string[];
  /** Messages logged at info. */
  infos(): string[];
}

export function captureLogger(): CapturedLogger {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString("utf8").split("\n")) if (line.trim()) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  const logger = pino({ level: "debug" }, stream);
  return {
    logger,
    lines,
    warnings: () => lines.filter((l) => l.level >= 40).map((l) => l.msg),
    infos: () => lines.filter((l) => l.level === 30).map((l) => l.msg),
  };
}

/** A fresh temporary directory; remove it with `cleanup`. */
export async function tempDir(prefix = "manifests-test-"): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

export async function cleanup(dir: string | undefined): Promise<void> {
  if (dir) await rm(dir, { recursive: true, force: true });
}

/** A world directory whose manifests are a copy of `from`. */
export async function worldWith(from: string): Promise<string> {
  const world = await tempDir("world-");
  await cp(from, path.join(world, "manifests"), { recursive: true });
  return world;
}

/** Write JSON files (relative path -> value; strings are written as-is). */
export async function writeFiles(dir: string, files: Record<string, unknown>): Promise<void> {
  for (const [rel, value] of Object.entries(files)) {
    const file = path.join(dir, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, typeof value === "string" ? value : JSON.stringify(value, null, 2));
  }
}
