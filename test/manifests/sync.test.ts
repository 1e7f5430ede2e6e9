import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { startAssetHost, type AssetHost } from "../helpers/assetHost.js";
import { ETAG_SIDECAR, ManifestError, prepareGameData, syncManifests, type ManifestSyncOptions } from "../../src/manifests/index.js";
import { captureLogger, cleanup, DEFAULT_MANIFESTS, tempDir, worldWith, type CapturedLogger } from "./support.js";
import { WORLD_FEATURES } from "../../src/features/index.js";

/** A host nobody listens on: start a host, remember its URL, stop it. */
async function deadUrl(): Promise<string> {
  const host = await startAssetHost({ manifestsDir: DEFAULT_MANIFESTS });
  await host.stop();
  return host.url;
}

describe("manifests: syncManifests (fetch + ETag cache)", function () {
  let host: AssetHost | undefined;
  let fallback: AssetHost | undefined;
  let world: string | undefined;
  let log: CapturedLogger;

  beforeEach(function () {
    log = captureLogger();
  });
  afterEach(async function () {
    await host?.stop();
    await fallback?.stop();
    await cleanup(world);
    host = fallback = world = undefined;
  });

  function options(over: Partial<ManifestSyncOptions> = {}): ManifestSyncOptions {
    return {
      worldDir: world!,
      cdnUrl: host?.url ?? "",
      fallbackCdnUrl: "",
      mode: "production",
      ci: false,
      skip: false,
      logger: log.logger,
      timeoutMs: 2000,
      ...over,
    };
  }
  const file = (rel: string) => path.join(world!, "manifests", rel);

  it("production, empty cache: fetches every manifest the host has and records ETags", async function () {
    host = await startAssetHost({ manifestsDir: DEFAULT_MANIFESTS });
    world = await tempDir("world-");
    const report = await syncManifests(options());
    assert.equal(report.action, "fetched");
    assert.ok(report.updated.includes("npcs.json"));
    assert.ok(report.updated.includes("items/weapons.json"));
    assert.ok(report.updated.includes("gathering/mining.json"));
    assert.deepEqual(report.missingRequired, []);
    assert.equal(await readFile(file("npcs.json"), "utf8"), await readFile(path.join(DEFAULT_MANIFESTS, "npcs.json"), "utf8"));
    const sidecar = JSON.parse(await readFile(path.join(world, ETAG_SIDECAR), "utf8"));
    assert.match(sidecar.files["npcs.json"].etag, /^".+"$/);
    assert.equal(sidecar.files["npcs.json"].baseUrl, host.url);
    assert.equal(host.count("items.json"), 0, "the split layout was found, items.json is never asked for");
    assert.ok(log.infos().includes("manifest npcs.json: updated"));
  });

  it("an unchanged file answers 304 and is left untouched (same mtime, same content)", async function () {
    host = await startAssetHost({ manifestsDir: DEFAULT_MANIFESTS });
    world = await tempDir("world-");
    await syncManifests(options());
    const before = await stat(file("npcs.json"));
    const content = await readFile(file("npcs.json"), "utf8");
    host.resetCounters();

    const report = await syncManifests(options());
    assert.equal(host.notModifiedCount("npcs.json"), 1);
    assert.equal(host.okCount("npcs.json"), 0);
    assert.match(host.lastIfNoneMatch.get("/manifests/npcs.json") ?? "", /^".+"$/);
    assert.ok(report.notModified.includes("npcs.json"));
    assert.deepEqual(report.updated, []);
    const after = await stat(file("npcs.json"));
    assert.equal(after.mtimeMs, before.mtimeMs);
    assert.equal(after.ino, before.ino);
    assert.equal(await readFile(file("npcs.json"), "utf8"), content);
    assert.ok(log.infos().includes("manifest npcs.json: 304 not modified"));
  });

  it("CI behaves like production: conditional requests even with a complete local cache", async function () {
    host = await startAssetHost({ manifestsDir: DEFAULT_MANIFESTS });
    world = await tempDir("world-");
    await syncManifests(options());
    host.resetCounters();
    const report = await syncManifests(options({ mode: "development", ci: true }));
    assert.equal(report.action, "fetched");
    assert.equal(host.notModifiedCount("stores.json"), 1);
  });

  it("a file changed on the host is rewritten; the others stay 304", async function () {
    host = await startAssetHost({ manifestsDir: DEFAULT_MANIFESTS });
    world = await tempDir("world-");
    await syncManifests(options());
    const npcsBefore = await stat(file("npcs.json"));
    const stores = JSON.parse(await readFile(path.join(DEFAULT_MANIFESTS, "stores.json"), "utf8"));
    stores[0].name = "Renamed Store";
    host.setFile("stores.json", JSON.stringify(stores));
    host.resetCounters();

    const report = await syncManifests(options());
    assert.deepEqual(report.updated, ["stores.json"]);
    assert.equal(host.okCount("stores.json"), 1);
    assert.equal(JSON.parse(await readFile(file("stores.json"), "utf8"))[0].name, "Renamed Store");
    assert.equal((await stat(file("npcs.json"))).mtimeMs, npcsBefore.mtimeMs);
    // the new ETag is remembered: a third start-up is all 304
    host.resetCounters();
    await syncManifests(options());
    assert.equal(host.notModifiedCount("stores.json"), 1);
    assert.equal(host.okCount("stores.json"), 0);
  });

  it("host down (connection refused): the cache is used, with a warning, and loading works", async function () {
    world = await worldWith(DEFAULT_MANIFESTS);
    const before = await readFile(file("npcs.json"), "utf8");
    const url = await deadUrl();
    const report = await syncManifests({ ...options({ cdnUrl: url }) });
    assert.deepEqual(report.unreachable, [url]);
    assert.ok(report.cached.includes("npcs.json"));
    assert.ok(
      log.warnings().some((w) => w.includes("unreachable") && w.includes("cached")),
      log.warnings().join("\n"),
    );
    assert.equal(await readFile(file("npcs.json"), "utf8"), before);
    const data = await prepareGameData(options({ cdnUrl: url }));
    assert.ok(data.items.size > 0);
  });

  it("fetches the feature folders' own files (featureFiles) and loads them into extras; without them they are not asked for", async function () {
    host = await startAssetHost({ manifestsDir: DEFAULT_MANIFESTS });
    world = await tempDir("world-");
    const without = await syncManifests(options());
    assert.equal(host.count("thieving.json"), 0, "no feature names it: not asked for");
    assert.ok(!without.updated.includes("thieving.json"));
    const data = await prepareGameData(options({ featureFiles: [...WORLD_FEATURES.manifests] }));
    for (const rel of WORLD_FEATURES.manifests) assert.equal(host.count(rel), 1, rel);
    assert.deepEqual(
      WORLD_FEATURES.manifests.filter((rel) => !(rel.replace(/\.json$/, "") in data.extras)),
      [],
      "every feature's file is in extras",
    );
    assert.ok(WORLD_FEATURES.manifests.includes("thieving.json") && WORLD_FEATURES.manifests.includes("agility.json"));
  });

  it("host failing with 5xx for a file: that file comes from the cache, with a warning", async function () {
    host = await startAssetHost({ manifestsDir: DEFAULT_MANIFESTS });
    world = await worldWith(DEFAULT_MANIFESTS);
    const before = await readFile(file("biomes.json"), "utf8");
    host.respondStatus("biomes.json", 503);
    const report = await syncManifests(options());
    assert.ok(report.cached.includes("biomes.json"));
    assert.ok(log.warnings().some((w) => w.includes("biomes.json") && w.includes("HTTP 503") && w.includes("cached")));
    assert.equal(await readFile(file("biomes.json"), "utf8"), before);
  });

  it("a request that times out counts as the host failing: the cache is used", async function () {
    host = await startAssetHost({ manifestsDir: DEFAULT_MANIFESTS });
    world = await worldWith(DEFAULT_MANIFESTS);
    host.hang("world-areas.json");
    const report = await syncManifests(options({ timeoutMs: 300 }));
    assert.ok(report.cached.includes("world-areas.json"));
    assert.ok(log.warnings().some((w) => w.includes("world-areas.json") && w.includes("timed out")));
  });

  it("invalid JSON from the host does not replace a good cached copy", async function () {
    host = await startAssetHost({ manifestsDir: DEFAULT_MANIFESTS });
    world = await worldWith(DEFAULT_MANIFESTS);
    const before = await readFile(file("stores.json"), "utf8");
    host.setFile("stores.json", "{ not json");
    const report = await syncManifests(options());
    assert.ok(report.cached.includes("stores.json"));
    assert.equal(await readFile(file("stores.json"), "utf8"), before);
  });

  it("development with local manifests: no request is made", async function () {
    host = await startAssetHost({ manifestsDir: DEFAULT_MANIFESTS });
    world = await worldWith(DEFAULT_MANIFESTS);
    const report = await syncManifests(options({ mode: "development" }));
    assert.equal(report.action, "local");
    assert.equal(host.total(), 0);
  });

  it("development without local manifests: they are fetched", async function () {
    host = await startAssetHost({ manifestsDir: DEFAULT_MANIFESTS });
    world = await tempDir("world-");
    const report = await syncManifests(options({ mode: "development" }));
    assert.equal(report.action, "fetched");
    assert.ok(host.okCount("npcs.json") === 1 && host.okCount("items/food.json") === 1);
    assert.ok(existsSync(file("world-areas.json")));
  });

  it("development with a required file missing locally: fetched", async function () {
    host = await startAssetHost({ manifestsDir: DEFAULT_MANIFESTS });
    world = await worldWith(DEFAULT_MANIFESTS);
    await rm(file("stores.json"));
    await syncManifests(options({ mode: "test" }));
    assert.equal(host.okCount("stores.json"), 1);
    assert.ok(existsSync(file("stores.json")));
  });

  it("optional 404s are quiet (debug), not warnings", async function () {
    host = await startAssetHost({ manifestsDir: DEFAULT_MANIFESTS });
    world = await tempDir("world-");
    const report = await syncManifests(options());
    assert.ok(report.notFound.includes("vegetation.json"));
    assert.ok(!log.warnings().some((w) => w.includes("vegetation.json")));
    assert.ok(log.lines.some((l) => l.level === 20 && l.msg.includes("vegetation.json")));
  });

  it("the fallback host is used when the primary lacks required files", async function () {
    host = await startAssetHost({ manifestsDir: DEFAULT_MANIFESTS });
    fallback = await startAssetHost({ manifestsDir: DEFAULT_MANIFESTS });
    host.respond404("npcs.json");
    host.respond404("world-areas.json");
    world = await tempDir("world-");
    const report = await syncManifests(options({ fallbackCdnUrl: fallback.url }));
    assert.equal(report.fallbackUsed, true);
    assert.deepEqual(report.hosts, [host.url, fallback.url]);
    assert.equal(fallback.okCount("npcs.json"), 1);
    assert.deepEqual(report.missingRequired, []);
    assert.ok(log.warnings().some((w) => w.includes("fallback")));
    const data = await prepareGameData(options({ fallbackCdnUrl: fallback.url }));
    assert.ok(data.npcs.size > 0);
  });

  it("the fallback host is used when the primary is down and there is no cache", async function () {
    fallback = await startAssetHost({ manifestsDir: DEFAULT_MANIFESTS });
    world = await tempDir("world-");
    const report = await syncManifests({ ...options({ cdnUrl: await deadUrl(), fallbackCdnUrl: fallback.url }) });
    assert.equal(report.fallbackUsed, true);
    assert.deepEqual(report.missingRequired, []);
  });

  it("the fallback host is not asked when nothing is missing", async function () {
    host = await startAssetHost({ manifestsDir: DEFAULT_MANIFESTS });
    fallback = await startAssetHost({ manifestsDir: DEFAULT_MANIFESTS });
    world = await tempDir("world-");
    const report = await syncManifests(options({ fallbackCdnUrl: fallback.url }));
    assert.equal(report.fallbackUsed, false);
    assert.equal(fallback.total(), 0);
  });

  it("required files missing everywhere: start-up stops with a ManifestError naming the file", async function () {
    host = await startAssetHost({ manifestsDir: DEFAULT_MANIFESTS });
    host.respond404("biomes.json");
    world = await tempDir("world-");
    const report = await syncManifests(options());
    assert.deepEqual(report.missingRequired, ["biomes.json"]);
    await assert.rejects(prepareGameData(options()), (err: unknown) => {
      assert.ok(err instanceof ManifestError);
      assert.equal(err.file, "biomes.json");
      assert.match(err.message, /biomes\.json/);
      return true;
    });
  });

  it("SKIP_MANIFESTS: no request, and what is there loads leniently", async function () {
    host = await startAssetHost({ manifestsDir: DEFAULT_MANIFESTS });
    world = await worldWith(DEFAULT_MANIFESTS);
    await rm(file("biomes.json"));
    await writeFile(file("stores.json"), "{ broken");
    const report = await syncManifests(options({ skip: true }));
    assert.equal(report.action, "skipped");
    const data = await prepareGameData(options({ skip: true }));
    assert.equal(host.total(), 0);
    assert.ok(data.items.size > 0);
    assert.equal(data.biomes.size, 0);
    assert.equal(data.stores.size, 0);
    assert.ok(data.warnings.some((w) => w.startsWith("biomes.json")));
    assert.ok(data.warnings.some((w) => w.startsWith("stores.json")));
  });
});
