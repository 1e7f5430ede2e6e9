import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { startAssetHost, type AssetHost } from "../helpers/assetHost.js";
import { collectAssetPaths, downloadAssets } from "../../src/manifests/index.js";
import { parseArgs, readAssetEnv, runDownloadAssets } from "../../src/manifests/downloadAssetsCli.js";
import { captureLogger, cleanup, DEFAULT_MANIFESTS, tempDir, writeFiles } from "./support.js";

const MANIFESTS = {
  "items/weapons.json": [
    { id: "sword", name: "Sword", modelPath: "asset://models/swords/sword.glb", iconPath: "asset://icons/sword.png" },
    { id: "axe", name: "Axe", modelPath: "asset://models/axes/axe.glb", equippedModelPath: "asset://models/axes/axe-held.glb" },
  ],
  "npcs.json": [{ id: "goblin", name: "Goblin", appearance: { modelPath: "asset://models/mobs/goblin.vrm" } }],
  "music.json": [
    { id: "n1", name: "Calm", category: "normal", path: "asset://audio/music/normal/1.mp3" },
    { id: "c1", name: "Fight", category: "combat", path: "asset://audio/music/combat/1.mp3" },
    { id: "old", name: "Old", category: "normal", path: "asset://music/normal/2.mp3" },
  ],
  "vegetation.json": { assets: [{ id: "fern", model: "plants/fern.glb" }] },
  "world-areas.json": { starterTowns: { t: { name: "T", terrain: "asset://world/terrain/heights.bin" } } },
  "bad.json": { sneaky: "asset://models/../../etc/passwd" },
};

const HOSTED: Record<string, string> = {
  "models/swords/sword.glb": "glTF-sword",
  "models/axes/axe.glb": "glTF-axe",
  "models/mobs/goblin.vrm": "vrm-goblin",
  "models/plants/fern.glb": "glTF-fern",
  "audio/music/normal/1.mp3": "mp3-calm",
  "audio/music/combat/1.mp3": "mp3-fight",
  "audio/music/normal/2.mp3": "mp3-old",
  "world/terrain/heights.bin": "heights",
  // models/axes/axe-held.glb is deliberately absent
};

describe("manifests: downloadAssets (build-time asset download)", function () {
  let host: AssetHost | undefined;
  let dirs: string[] = [];
  let manifestDir: string;
  let publicDir: string;

  beforeEach(async function () {
    const root = await tempDir("assets-root-");
    manifestDir = await tempDir("assets-manifests-");
    publicDir = await tempDir("assets-public-");
    dirs = [root, manifestDir, publicDir];
    await writeFiles(manifestDir, MANIFESTS);
    for (const [rel, body] of Object.entries(HOSTED)) {
      await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
      await writeFile(path.join(root, rel), body);
    }
    host = await startAssetHost({ manifestsDir: manifestDir, rootDir: root });
  });
  afterEach(async function () {
    await host?.stop();
    for (const d of dirs) await cleanup(d);
  });

  it("collects model, music and world references (not icons, not unsafe paths)", async function () {
    const paths = await collectAssetPaths(manifestDir, captureLogger().logger);
    assert.deepEqual(paths, [
      "audio/music/combat/1.mp3",
      "audio/music/normal/1.mp3",
      "audio/music/normal/2.mp3",
      "models/../../etc/passwd",
      "models/axes/axe-held.glb",
      "models/axes/axe.glb",
      "models/mobs/goblin.vrm",
      "models/plants/fern.glb",
      "models/swords/sword.glb",
      "world/terrain/heights.bin",
    ]);
  });

  it("downloads into the public directory under the same paths, reports failures per file, skips what is there", async function () {
    await mkdir(path.join(publicDir, "models/swords"), { recursive: true });
    await writeFile(path.join(publicDir, "models/swords/sword.glb"), "already-here");
    const report = await downloadAssets({ manifestDir, publicDir, cdnUrl: host!.url, logger: captureLogger().logger });

    assert.deepEqual(report.skipped, ["models/swords/sword.glb"]);
    assert.deepEqual(report.downloaded, [
      "audio/music/combat/1.mp3",
      "audio/music/normal/1.mp3",
      "audio/music/normal/2.mp3",
      "models/axes/axe.glb",
      "models/mobs/goblin.vrm",
      "models/plants/fern.glb",
      "world/terrain/heights.bin",
    ]);
    assert.deepEqual(report.failed, [
      { path: "models/../../etc/passwd", reason: "unsafe path" },
      { path: "models/axes/axe-held.glb", reason: "HTTP 404" },
    ]);
    assert.equal(await readFile(path.join(publicDir, "models/axes/axe.glb"), "utf8"), "glTF-axe");
    assert.equal(await readFile(path.join(publicDir, "audio/music/normal/2.mp3"), "utf8"), "mp3-old");
    assert.equal(await readFile(path.join(publicDir, "models/swords/sword.glb"), "utf8"), "already-here");
    assert.equal(host!.count("/models/swords/sword.glb"), 0);
    assert.equal(host!.count("/etc/passwd"), 0);

    host!.resetCounters();
    const again = await downloadAssets({ manifestDir, publicDir, cdnUrl: host!.url, logger: captureLogger().logger });
    assert.equal(again.downloaded.length, 0);
    assert.equal(again.skipped.length, 8);
    assert.equal(host!.total(), 1, "only the missing file is asked for again");
  });

  it("a host that is down makes every file fail, without throwing", async function () {
    await host!.stop();
    const report = await downloadAssets({ manifestDir, publicDir, cdnUrl: host!.url, logger: captureLogger().logger });
    assert.equal(report.downloaded.length, 0);
    assert.equal(report.failed.length, 10);
    assert.ok(report.failed.filter((f) => f.reason !== "unsafe path").every((f) => f.reason.length > 0));
  });

  it("the CLI: argv parsing, SKIP_ASSETS, and settings through the configuration", async function () {
    assert.deepEqual(parseArgs(["--public", "out", "--cdn", "http://x", "--world", "w"]), {
      publicDir: "out",
      cdnUrl: "http://x",
      worldDir: "w",
      skip: false,
    });
    assert.throws(() => parseArgs(["--bogus"]), /unknown argument/);
    const log = captureLogger();
    assert.equal(await runDownloadAssets({ publicDir, skip: false }, { cdnUrl: host!.url, worldDir: "/nowhere", skip: true }, log.logger), null);

    const world = path.dirname(manifestDir);
    const settings = readAssetEnv({ PUBLIC_CDN_URL: host!.url, WORLD: world, NODE_ENV: "production" });
    assert.equal(settings.cdnUrl, host!.url);
    assert.equal(settings.worldDir, path.resolve(world));
    assert.equal(settings.skip, false);
  });

  it("the CLI downloads for a world directory", async function () {
    const world = await tempDir("assets-world-");
    dirs.push(world);
    await writeFiles(path.join(world, "manifests"), { "music.json": MANIFESTS["music.json"] });
    const report = await runDownloadAssets({ publicDir, skip: false }, { cdnUrl: host!.url, worldDir: world, skip: false }, captureLogger().logger);
    assert.deepEqual(report?.downloaded, ["audio/music/combat/1.mp3", "audio/music/normal/1.mp3", "audio/music/normal/2.mp3"]);
    assert.ok(existsSync(path.join(publicDir, "audio/music/combat/1.mp3")));
  });
});
