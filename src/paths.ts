import { existsSync } from "node:fs";
import path from "node:path";

/** The project root: the nearest folder above this file with a package.json (works from src/ and dist/). */
function findRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (existsSync(path.join(dir, "package.json")) && existsSync(path.join(dir, "prisma"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`project root not found above ${start}`);
    dir = parent;
  }
}

export const ROOT = findRoot(import.meta.dirname);
export const MIGRATIONS_DIR = path.join(ROOT, "prisma", "migrations");
export const PUBLIC_DIR = path.join(ROOT, "public");
export const DEFAULT_WORLD_DIR = path.join(ROOT, "world");
/** What the server makes once and keeps (the embedded database's template; src/launch.mjs's bundles, which names it too). */
export const CACHE_DIR = path.join(ROOT, "node_modules", ".cache", "arena-world");
