/**
 * `npm start`'s entry: the server (src/index.ts) as one bundle of its own code, made by esbuild and
 * kept under node_modules/.cache/arena-world/server-<fingerprint>/, run by plain Node. Node then
 * loads the server's ~220 TypeScript files as a few modules, with no TypeScript loader in between
 * for them or for the packages. Most packages are not bundled (they load from node_modules as
 * usual); the few in BUNDLED are, as they load faster so. The bundle is made again when any
 * source file or the package lock changes (the fingerprint is a hash of every file it is made
 * from), in ~0.3 s. The start's phases are marked (src/startupTimes.ts): `npm run bench:startup`.
 *
 * This one file is JavaScript: it runs before anything can read TypeScript. When no bundle can be
 * made (no folder to write it in, esbuild missing), the server runs from its sources through tsx,
 * as `node --import tsx src/index.ts` does, with a warning.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PerformanceObserver } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import v8 from "node:v8";
import { Worker } from "node:worker_threads";
import { mapStackTraces } from "./stackTraces.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
/** src/paths.ts's CACHE_DIR (this file cannot import TypeScript). */
const CACHE = path.join(ROOT, "node_modules", ".cache", "arena-world");
/** What the bundle is made from (the server's code, its build settings, and the packages' versions: some are bundled). */
const SOURCES = ["src", "rooms", "schema", "arena.config.ts", "tsconfig.json", "package.json", "package-lock.json"];
/**
 * The packages bundled with the server's code (the others load from node_modules). These load
 * as ~200 small modules, a third of them the ESM loader's own work, and nothing outside the
 * server's code imports them: bundled, they take ~0.1 s less of a start. The rest stay outside:
 * shared with other packages (Colyseus, express, ws), reading files beside their code (PGlite,
 * Prisma, pino's transports, the monitor), native, or loaded only when used.
 */
const BUNDLED = new Set(["zod", "prom-client", "rate-limiter-flexible"]);

/** esbuild: a package import stays an import, unless the package is BUNDLED or the importer is bundled itself. */
const bundledPackages = {
  name: "bundled-packages",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const name = args.path.startsWith("@") ? args.path.split("/").slice(0, 2).join("/") : args.path.split("/")[0];
      return BUNDLED.has(name) ? undefined : { path: args.path, external: true };
    });
  },
};
/** Bundles kept besides the newest (a server still running an older one may yet load its chunks). */
const KEEP = 3;

/** A hash of every source file's path and content under `root`, and of the bundler's version. */
export function fingerprint(esbuildVersion, root = ROOT) {
  const hash = createHash("sha256").update(`esbuild ${esbuildVersion}\n`);
  const file = (rel) => hash.update(`${rel}\n`).update(readFileSync(path.join(root, rel)));
  // Each folder read once with its entries' kinds (no stat per file): a few ms for the ~280 files.
  const folder = (rel) => {
    const entries = readdirSync(path.join(root, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) folder(child);
      else if (/\.(ts|mjs|json)$/.test(entry.name)) file(child);
    }
  };
  for (const rel of SOURCES) {
    const stats = statSync(path.join(root, rel), { throwIfNoEntry: false });
    if (stats?.isDirectory()) folder(rel);
    else if (stats) file(rel);
  }
  return hash.digest("hex").slice(0, 16);
}

/** The bundler's version, read from its package (importing esbuild itself takes ~0.1 s of a start that needs no build). */
function esbuildVersion() {
  const manifest = createRequire(import.meta.url).resolve("esbuild/package.json");
  return JSON.parse(readFileSync(manifest, "utf8")).version;
}

/** The server's bundle (index.js, the embedded database's thread as pgliteWorker.js): made when missing. */
export async function bundle() {
  const dir = path.join(CACHE, `server-${fingerprint(esbuildVersion())}`);
  if (existsSync(path.join(dir, "index.js"))) return dir;
  const esbuild = await import("esbuild");
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
    plugins: [bundledPackages],
    // A bundled CommonJS package's require() of Node's own modules (esbuild's ESM output has no require of its own).
    banner: { js: `import { createRequire as __arenaCreateRequire } from "node:module";\nconst require = __arenaCreateRequire(import.meta.url);` },
    sourcemap: "linked",
    // Stack traces need the maps' positions, not the sources in them (src/stackTraces.mjs reads a map when a stack needs it).
    sourcesContent: false,
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

/**
 * V8's budget for optimizing WebAssembly (roughly, the bytes a function runs before TurboFan
 * compiles it: V8's default in Node 20 and 22), and the one a start uses. A start runs much of
 * PGlite's PostgreSQL and of Prisma's query compiler once or a few times, and at the default,
 * optimizing what it ran took ~1 s of CPU on V8's background threads, beside the start, on this
 * project's 2-core machine (`npm run bench:startup`). The budget goes back to the default once
 * the server listens: what the running server runs often is optimized as before.
 */
const WASM_TIERING_BUDGET = 1_800_000;
const START_WASM_TIERING_BUDGET = 10 * WASM_TIERING_BUDGET;

/** The start's own settings, until the server listens (src/index.ts marks "start:listening"). */
function startSettings() {
  v8.setFlagsFromString(`--wasm-tiering-budget=${START_WASM_TIERING_BUDGET}`);
  const listening = new PerformanceObserver((list) => {
    if (!list.getEntriesByName("start:listening").length) return;
    listening.disconnect();
    v8.setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
  });
  listening.observe({ entryTypes: ["mark"] });
}

/**
 * The embedded database's thread, started now: it loads PGlite (~0.2 s) while the server's code
 * loads here, then opens the database src/db/pgliteThread.ts hands it (the first one opened; a
 * server on PostgreSQL ends it). Unreferenced: it keeps no process alive.
 */
function startDatabaseThread(dir) {
  const ahead = { worker: new Worker(pathToFileURL(path.join(dir, "pgliteWorker.js")), { workerData: { prewarmed: true } }), failed: false };
  ahead.worker.unref();
  const failed = () => (ahead.failed = true);
  ahead.worker.once("error", failed).once("exit", failed);
  globalThis[Symbol.for("arena-world.pgliteThreadAhead")] = ahead;
}

/** Start the server: from its bundle, else from its sources through tsx. */
async function launch() {
  // The start's phases (src/startupTimes.ts): Node and this file loaded, then the bundle found or made.
  performance.mark("start:node");
  startSettings();
  let dir;
  try {
    dir = await bundle();
  } catch (err) {
    console.error(`warning: the server's bundle could not be made (${err.message}); running from its sources through tsx`);
  }
  performance.mark("start:bundle");
  if (dir) {
    startDatabaseThread(dir);
    // Stack traces name the TypeScript sources (the bundle's source maps, read when a stack needs them).
    mapStackTraces(dir);
    await import(pathToFileURL(path.join(dir, "index.js")).href);
  } else {
    const { register } = await import("tsx/esm/api");
    register();
    await import("./index.ts");
  }
}

// Run as a program (npm start); imported (the tests), it only lends its functions.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await launch();
