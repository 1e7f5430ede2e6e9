import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { ROOT } from "../../src/paths.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

/** A raw GET, so the path reaches the server exactly as written (fetch would normalise `..`). */
function rawGet(port: number, rawPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: rawPath, method: "GET" }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("GET /manifests", function () {
  this.timeout(30_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  it("serves a manifest with cache headers and an ETag", async () => {
    const res = await fetch(`${server.url}/manifests/npcs.json`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "public, max-age=300, must-revalidate");
    assert.ok(res.headers.get("etag"));
    const onDisk = await readFile(path.join(ROOT, "world", "manifests", "npcs.json"), "utf8");
    assert.equal(await res.text(), onDisk);
  });

  it("serves files in subfolders", async () => {
    const res = await fetch(`${server.url}/manifests/gathering/woodcutting.json`);
    assert.equal(res.status, 200);
    const onDisk = await readFile(path.join(ROOT, "world", "manifests", "gathering", "woodcutting.json"), "utf8");
    assert.equal(await res.text(), onDisk);
    assert.equal(res.headers.get("cache-control"), "public, max-age=300, must-revalidate");
  });

  it("answers 304 to a matching If-None-Match", async () => {
    const first = await fetch(`${server.url}/manifests/stores.json`);
    const etag = first.headers.get("etag")!;
    await first.arrayBuffer();
    const again = await fetch(`${server.url}/manifests/stores.json`, { headers: { "if-none-match": etag } });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get("etag"), etag);
    const browserStyle = await fetch(`${server.url}/manifests/stores.json`, { headers: { "if-none-match": etag, "cache-control": "max-age=0" } });
    assert.equal(browserStyle.status, 304);
    const changed = await fetch(`${server.url}/manifests/stores.json`, { headers: { "if-none-match": '"something-else"' } });
    assert.equal(changed.status, 200);
  });

  it("answers 404 for an unknown manifest", async () => {
    const res = await fetch(`${server.url}/manifests/nope.json`);
    assert.equal(res.status, 404);
    assert.equal((await res.json()).error.code, "NOT_FOUND");
  });

  for (const p of [
    "/manifests/../package.json",
    "/manifests/..%2fpackage.json",
    "/manifests/%2e%2e/package.json",
    "/manifests/%2e%2e%2f%2e%2e%2fpackage.json",
    "/manifests/gathering/../../package.json",
    "/manifests/..%5cpackage.json",
    "/manifests/%252e%252e/package.json",
    "/manifests/.manifest-etags.json",
  ]) {
    it(`never leaves the folder: ${p}`, async () => {
      const res = await rawGet(server.port, p);
      assert.ok([400, 404].includes(res.status), `${p} -> ${res.status}`);
      assert.ok(!res.body.includes('"name": "arena-world-server"') && !res.body.includes("devDependencies"), "package.json leaked");
    });
  }
});
