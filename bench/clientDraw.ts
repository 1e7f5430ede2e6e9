/**
 * npm run bench:client: the web client's drawing time per frame, in headless Chromium (Debian's,
 * /usr/bin/chromium or CHROMIUM_PATH), with 250 players and 100 npcs in view (options:
 * --players, --npcs, --frames). The client's own WorldView and Minimap draw a made-up room state
 * (bench/clientDrawPage.ts, bundled by esbuild from client/src); the map and the catalogue are the
 * default world's, built as the server builds them. Each frame's time covers the map, the
 * minimap and the canvas's flush. Prints the distribution (p50, p95, p99, max) against the target
 * of 4 ms, and last a JSON line of them (for bench/ab.ts --bench client).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { catalogue } from "../src/http/api/catalogue.js";
import { worldMap } from "../src/http/api/world.js";
import { createLogger } from "../src/logger.js";
import { loadGameData } from "../src/manifests/load.js";
import { ROOT } from "../src/paths.js";
import { benchArgs } from "./args.js";

const TARGET_MS = 4;
const args = benchArgs("npm run bench:client", { players: "250", npcs: "100", frames: "600" });
const players = Number(args.players);
const npcs = Number(args.npcs);
const frames = Number(args.frames);

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromiumPath)) {
  console.error(`bench:client needs Chromium at ${chromiumPath}: apt-get install chromium, or set CHROMIUM_PATH`);
  process.exit(1);
}

const data = await loadGameData(path.join(ROOT, "world", "manifests"), createLogger({ level: "silent" }));
const areas = [...data.worldAreas.values()].map((a) => ({
  id: a.id,
  name: a.name,
  description: a.description ?? null,
  group: a.group,
  isStarterTown: a.isStarterTown,
  bounds: a.bounds,
  biomeType: a.biomeType ?? null,
  safeZone: a.safeZone,
}));
const bundle = await build({
  entryPoints: [path.join(ROOT, "bench", "clientDrawPage.ts")],
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  write: false,
  logLevel: "silent",
  tsconfig: path.join(ROOT, "client", "tsconfig.json"),
});
const input = { map: worldMap(data), catalogue: catalogue(data), areas, players, npcs, warmup: 60, frames };

const browser = await chromium.launch({
  executablePath: chromiumPath,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1060, height: 760 } });
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(e.message));
  await page.setContent(
    `<!doctype html><html><body style="margin:0;background:#111">
      <canvas id="world" width="720" height="528"></canvas><canvas id="minimap" width="200" height="168"></canvas>
      <div id="menu" hidden></div><div id="hover" hidden></div><div id="action-text"></div>
    </body></html>`,
  );
  await page.evaluate((i) => ((window as unknown as { benchInput: unknown }).benchInput = i), input);
  await page.addScriptTag({ content: bundle.outputFiles[0]!.text, type: "module" });
  const result = (await page
    .waitForFunction(() => (window as unknown as { benchResult?: unknown }).benchResult, null, { timeout: 300_000 })
    .then((h) => h.jsonValue())) as {
    times: number[];
    drawn: { players: number; npcs: number };
  };
  if (problems.length) throw new Error(problems.join("; "));
  const sorted = [...result.times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  console.log(`bench:client — the web client's draw time per frame, headless Chromium (${path.basename(chromiumPath)}), 720×528 map + 200×168 minimap`);
  console.log(
    `${result.drawn.players} players and ${result.drawn.npcs} npcs in view, half of them stepping each 600 ms tick; ${sorted.length} frames after 60 to warm up`,
  );
  console.log(`  p50 ${ms(at(0.5))}   p95 ${ms(at(0.95))}   p99 ${ms(at(0.99))}   max ${ms(sorted[sorted.length - 1]!)}   mean ${ms(mean)}`);
  const buckets = [1, 2, 3, 4, 6, 8, 16, Infinity];
  let from = 0;
  const rows = buckets.map((b) => {
    const n = sorted.filter((v) => v >= from && v < b).length;
    const row = `  ${from.toString().padStart(2)}–${b === Infinity ? "  " : b.toString().padEnd(2)} ms ${"#".repeat(Math.round((60 * n) / sorted.length)).padEnd(60)} ${n}`;
    from = b;
    return row;
  });
  console.log(rows.join("\n"));
  console.log(`target p95 ≤ ${TARGET_MS} ms: ${at(0.95) <= TARGET_MS ? "met" : "NOT met"}`);
  // The report bench/ab.ts reads (its last line).
  const frameMs = { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted[sorted.length - 1]!, mean };
  console.log(JSON.stringify({ bench: "client", players: result.drawn.players, npcs: result.drawn.npcs, frames: sorted.length, frameMs }));
} finally {
  await browser.close();
}
