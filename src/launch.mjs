/**
 * `npm start`'s entry: the server (src/index.ts) as one bundle of its own code, made by esbuild and
 * kept under node_modules/.cache/arena-world/server-<fingerprint>/, run by plain Node. Node then
 * loads the server's ~220 TypeScript files as a few modules, with no TypeScript loader in between
 * for them or for the ~280 modules of the packages (the packages are not bundled: they load from
 * node_modules as usual). On this project's 2-core machine that takes ~0.5 s off a start
 * (`npm run bench:startup`). The bundle is made again when any source file changes (the
 * fingerprint is a hash of every file it is made from), in ~0.2 s.
 *
 * This one file is JavaScript: it runs before anything can read TypeScript. When no bundle can be
 * made (no folder to write it in, esbuild missing), the server runs from its sources through tsx,
 * as `node --import tsx src/index.ts` does, with a warning.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(import.meta.dirname, "..");
/** src/paths.ts's CACHE_DIR (this file cannot import TypeScript). */
const CACHE = path.join(ROOT, "node_modules", ".cache", "arena-world");
/** What the bundle is made from (the server's code and its build settings). */
const SOURCES = ["src", "rooms", "schema", "arena.config.ts", "tsconfig.json", "package.json"];
/** Bundles kept besides the newest (a server still running an older one may yet load its chunks). */
const KEEP = 3;

/** A hash of every source file's path and content under `root`, and of the bundler's version. */
export function fingerprint(esbuildVersion, root = ROOT) {
  const hash = createHash("sha256").update(`esbuild ${esbuildVersion}\n`);
  const visit = (rel) => {
    const abs = path.join(root, rel);
    if (!existsSync(abs)) return;
    if (statSync(abs).isDirectory()) {
      for (const name of readdirSync(abs).sort()) visit(path.join(rel, name));
    } else if (/\.(ts|mjs|json)$/.test(rel)) {
      hash.update(`${rel}\n`).update(readFileSync(abs));
    }
  };
  for (const rel of SOURCES) visit(rel);
  return hash.digest("hex").slice(0, 16);
}

/** The server's bundle (index.js, the embedded database's thread as pgliteWorker.js): made when missing. */
export async function bundle() {
  const esbuild = await import("esbuild");
  const dir = path.join(CACHE, `server-${fingerprint(esbuild.version)}`);
  if (existsSync(path.join(dir, "index.js"))) return dir;
  // Made beside and renamed: a server starting at the same time never sees half of it.
  const making = `${dir}.${process.pid}.part`;
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: { index: "src/index.ts", pgliteWorker: "src/db/pgliteWorker.ts" },
    outdir: making,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    sourcemap: "linked",
    logLevel: "error",
  });
  try {
    renameSync(making, dir);
  } catch (err) {
    rmSync(making, { recursive: true, force: true });
    if (!existsSync(path.join(dir, "index.js"))) throw err;
  }
  prune(dir);
  return dir;
}

/** Remove all but the newest few bundles. */
function prune(current) {
  const old = readdirSync(CACHE)
    .filter((name) => name.startsWith("server-") && path.join(CACHE, name) !== current)
    .map((name) => ({ dir: path.join(CACHE, name), at: statSync(path.join(CACHE, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { dir } of old.slice(KEEP)) rmSync(dir, { recursive: true, force: true });
}

/** Start the server: from its bundle, else from its sources through tsx. */
async function launch() {
  let dir;
  try {
    dir = await bundle();
  } catch (err) {
    console.error(`warning: the server's bundle could not be made (${err.message}); running from its sources through tsx`);
  }
  if (dir) {
    // Stack traces name the TypeScript sources (the bundle's source maps).
    process.setSourceMapsEnabled(true);
    await import(pathToFileURL(path.join(dir, "index.js")).href);
  } else {
    const { register } = await import("tsx/esm/api");
    register();
    await import("./index.ts");
  }
}

// Run as a program (npm start); imported (the tests), it only lends its functions.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await launch();
