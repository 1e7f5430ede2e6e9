import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import express from "express";
import { manifestRoutes } from "../../src/http/manifests.js";
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

describe("GET /manifests with links in the folder", function () {
  let dir: string;
  let srv: http.Server;
  let port: number;

  before(async () => {
    // A world whose manifests folder holds links: to a file outside it, to a folder outside it, to a file inside it.
    dir = await mkdtemp(path.join(os.tmpdir(), "arena-manifest-links-"));
    const manifests = path.join(dir, "manifests");
    const outside = path.join(dir, "outside");
    await mkdir(path.join(manifests, "sub"), { recursive: true });
    await mkdir(outside);
    await writeFile(path.join(outside, "secret.json"), '{"secret": "outside the folder"}');
    await writeFile(path.join(manifests, "npcs.json"), '{"npcs": []}');
    await writeFile(path.join(manifests, "sub", "real.json"), '{"real": true}');
    await symlink(path.join(outside, "secret.json"), path.join(manifests, "leak.json"));
    await symlink(outside, path.join(manifests, "linked"));
    await symlink(path.join(manifests, "npcs.json"), path.join(manifests, "alias.json"));
    const app = express().use(manifestRoutes(manifests));
    srv = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => srv.once("listening", resolve));
    port = (srv.address() as AddressInfo).port;
  });
  after(async () => {
    await new Promise((resolve) => srv?.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it("serves regular files, in subfolders too", async () => {
    assert.equal((await rawGet(port, "/manifests/npcs.json")).body, '{"npcs": []}');
    assert.equal((await rawGet(port, "/manifests/sub/real.json")).status, 200);
  });

  for (const p of ["/manifests/leak.json", "/manifests/linked/secret.json", "/manifests/alias.json", "/manifests/sub", "/manifests/linked"]) {
    it(`answers 404 for a link or a folder, never what it points to: ${p}`, async () => {
      const res = await rawGet(port, p);
      assert.equal(res.status, 404, `${p} -> ${res.status}`);
      assert.equal(JSON.parse(res.body).error.code, "NOT_FOUND");
      assert.ok(!res.body.includes("outside the folder"));
    });
  }
});
