/**
 * Finding and parsing the manifest files of a directory.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { ManifestError } from "./errors.js";
import { MANIFEST_SUBDIRS } from "./files.js";

function isManifestName(name: string): boolean {
  return name.endsWith(".json") && !name.startsWith(".");
}

async function jsonFilesIn(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isFile() && isManifestName(e.name)).map((e) => e.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT" || (err as NodeJS.ErrnoException).code === "ENOTDIR") {
      return [];
    }
    throw err;
  }
}

/**
 * Every manifest in a directory: top-level *.json plus those in items/, gathering/ and recipes/,
 * as sorted relative paths with forward slashes.
 */
export async function discoverManifests(dir: string): Promise<Set<string>> {
  const found = await jsonFilesIn(dir);
  for (const sub of MANIFEST_SUBDIRS) {
    for (const name of await jsonFilesIn(path.join(dir, sub))) found.push(`${sub}/${name}`);
  }
  return new Set(found.sort());
}

/** Read and parse one manifest. Unparseable JSON is a ManifestError naming the file. `onText` sees the file's text as read. */
export async function readManifest(dir: string, rel: string, onText?: (text: string) => void): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path.join(dir, rel), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") {
      throw new ManifestError(rel, `required manifest ${rel} is missing from ${dir}`);
    }
    throw new ManifestError(rel, `cannot read manifest ${rel}: ${(err as Error).message}`);
  }
  onText?.(text);
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as unknown;
  } catch (err) {
    throw new ManifestError(rel, `manifest ${rel} is not valid JSON: ${(err as Error).message}`);
  }
}
