import assert from "node:assert/strict";
import { startAssetHost, type AssetHost } from "../helpers/assetHost.js";
import { collectAssetPaths, syncManifests } from "../../src/manifests/index.js";
import { captureLogger, cleanup, COMPAT_2025, COMPAT_2026, DEFAULT_MANIFESTS, requireCompat, tempDir } from "../manifests/support.js";

/** The real game's published sets as the asset host and the asset collector see them. */
describe("compat: the published sets' files", function () {
  let host: AssetHost | undefined;
  let world: string | undefined;
  afterEach(async function () {
    await host?.stop();
    await cleanup(world);
    host = world = undefined;
  });

  it("finds the published set's models and music, and the default world's music", async function () {
    requireCompat(COMPAT_2026);
    const paths = await collectAssetPaths(COMPAT_2026, captureLogger().logger);
    assert.ok(paths.includes("models/trees/mushroom.glb"), "vegetation.json relative model");
    assert.ok(paths.includes("audio/music/normal/1.mp3"));
    assert.ok(paths.some((p) => p.startsWith("models/mobs/")));
    assert.ok(paths.every((p) => /^(models|audio\/music|world)\//.test(p)));
    const own = await collectAssetPaths(DEFAULT_MANIFESTS, captureLogger().logger);
    assert.deepEqual(own, ["audio/music/combat/1.mp3", "audio/music/normal/1.mp3", "audio/music/normal/2.mp3"]);
  });

  it("the older layout: items/weapons.json 404 -> items.json is fetched instead", async function () {
    requireCompat(COMPAT_2025);
    host = await startAssetHost({ manifestsDir: COMPAT_2025 });
    world = await tempDir("world-");
    const report = await syncManifests({
      worldDir: world,
      cdnUrl: host.url,
      fallbackCdnUrl: "",
      mode: "production",
      ci: false,
      skip: false,
      logger: captureLogger().logger,
      timeoutMs: 2000,
    });
    assert.equal(host.count("items/weapons.json"), 1);
    assert.equal(host.count("items/food.json"), 0);
    assert.ok(report.updated.includes("items.json"));
    assert.ok(report.updated.includes("mobs.json"));
    assert.deepEqual(report.missingRequired, []);
  });
});
