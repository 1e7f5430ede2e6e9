import assert from "node:assert/strict";
import http from "node:http";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import express from "express";
import { healthRoutes } from "../../src/http/health.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

describe("public endpoints", function () {
  this.timeout(30_000);
  let server: TestServer;
  let publicDir: string;
  const SECRETS = {
    JWT_SECRET: "jwt-secret-value-that-is-long-enough-000",
    ADMIN_CODE: "admin-code-secret-111",
    IDP_APP_SECRET: "idp-app-secret-222",
    VOICE_API_KEY: "voice-key-333",
    VOICE_API_SECRET: "voice-secret-444",
  };

  before(async () => {
    publicDir = await mkdtemp(path.join(os.tmpdir(), "arena-public-"));
    await writeFile(path.join(publicDir, "index.html"), "<!doctype html><title>world</title>");
    await writeFile(path.join(publicDir, "notes.txt"), "served from public/");
    server = await startTestServer({
      env: { ...SECRETS, PUBLIC_IDP_APP_ID: "app-id-public", PUBLIC_CDN_URL: "https://cdn.game.example", PUBLIC_APP_URL: "https://play.game.example" },
      publicDir,
    });
  });
  after(async () => {
    await server?.close();
    await rm(publicDir, { recursive: true, force: true });
  });

  it("GET /health reports ok with version, uptime and database latency", async () => {
    const res = await fetch(`${server.url}/health`);
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.status, "ok");
    assert.ok(!Number.isNaN(Date.parse(body.timestamp)) && body.timestamp === new Date(body.timestamp).toISOString());
    assert.match(body.version, /^\d+\.\d+\.\d+/);
    assert.equal(typeof body.uptime, "number");
    assert.equal(body.database.status, "ok");
    assert.equal(typeof body.database.latencyMs, "number");
    assert.equal(body.world, "running");
  });

  it("GET /status answers fast with players and rooms", async () => {
    const res = await fetch(`${server.url}/status`);
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.deepEqual(Object.keys(body).sort(), ["cluster", "connectedPlayers", "processId", "rooms", "status", "ticks", "uptime", "version", "worlds"]);
    assert.equal(body.status, "ok");
    assert.equal(body.rooms, 1, "the world room is open");
    assert.equal(body.connectedPlayers, 0);
    assert.deepEqual([body.cluster, body.worlds, typeof body.processId], [false, [1], "string"]);
    assert.deepEqual(Object.keys(body.ticks), ["1"]);
    assert.deepEqual(Object.keys(body.ticks["1"]).sort(), ["medianMs", "p99Ms", "players", "ticks"]);
    assert.ok(body.ticks["1"].p99Ms >= body.ticks["1"].medianMs);
  });

  it("GET /env.js sets the public settings and no secret", async () => {
    const res = await fetch(`${server.url}/env.js`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /javascript/);
    const text = await res.text();
    for (const secret of Object.values(SECRETS)) assert.ok(!text.includes(secret), `leaks ${secret}`);
    const window: { env?: Record<string, string> } = {};
    new Function("window", text)(window);
    assert.equal(window.env?.PUBLIC_IDP_APP_ID, "app-id-public");
    assert.equal(window.env?.PUBLIC_CDN_URL, "https://cdn.game.example");
    assert.equal(window.env?.PUBLIC_APP_URL, "https://play.game.example");
    assert.equal(window.env?.PUBLIC_API_URL, `http://localhost:${server.config.port}`);
    assert.match(window.env?.PUBLIC_WS_URL ?? "", /^ws:\/\/.*\/ws$/);
  });

  it("GET /api/data/skill-unlocks lists unlocks by skill, sorted by level, no token needed", async () => {
    const res = await fetch(`${server.url}/api/data/skill-unlocks`);
    assert.equal(res.status, 200);
    const body: Record<string, Array<{ level: number; description: string; type: string }>> = await res.json();
    assert.ok(Object.keys(body).length >= 5);
    for (const [skill, unlocks] of Object.entries(body)) {
      assert.ok(unlocks.length > 0, skill);
      for (const u of unlocks) {
        assert.ok(Number.isInteger(u.level) && u.level >= 1 && u.level <= 99);
        assert.equal(typeof u.description, "string");
        assert.ok(["item", "ability", "area", "quest", "activity"].includes(u.type), u.type);
      }
      assert.deepEqual(
        unlocks.map((u) => u.level),
        [...unlocks.map((u) => u.level)].sort((a, b) => a - b),
        skill,
      );
    }
    assert.ok(body.woodcutting?.length, "woodcutting unlocks");
  });

  it("serves the web client at / and the files of public/ beside it", async () => {
    const page = await fetch(`${server.url}/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<title>Arena World<\/title>/);
    const file = await fetch(`${server.url}/notes.txt`);
    assert.equal(file.status, 200);
    assert.equal(await file.text(), "served from public/");
  });

  it("unknown paths, under /api or not, answer 404 with the JSON error body, never an HTML page", async () => {
    for (const [method, path] of [
      ["GET", "/api/no/such/thing"],
      ["GET", "/nope"],
      ["POST", "/nope"],
      ["DELETE", "/deep/er/nope.html"],
      ["GET", "/manifests/%2e%2e/package.json"],
      ["GET", "/manifests/..%2fpackage.json"],
    ]) {
      // node:http sends the path as written (fetch would resolve the dot segments).
      const res = await new Promise<{ status: number; type: string; text: string }>((resolve, reject) =>
        http
          .request({ host: "127.0.0.1", port: server.port, path, method }, (r) => {
            let text = "";
            r.setEncoding("utf8");
            r.on("data", (d) => (text += d));
            r.on("end", () => resolve({ status: r.statusCode ?? 0, type: String(r.headers["content-type"]), text }));
          })
          .on("error", reject)
          .end(),
      );
      assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
      assert.match(res.type, /^application\/json/, `${method} ${path}`);
      const body = JSON.parse(res.text);
      assert.equal(body.success, false);
      assert.equal(body.error.code, "NOT_FOUND");
      assert.equal(typeof body.error.message, "string");
    }
  });

  it("malformed JSON answers 400 with the error body and no stack trace", async () => {
    const res = await fetch(`${server.url}/api/auth/guest`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"broken": ' });
    assert.equal(res.status, 400);
    const text = await res.text();
    assert.deepEqual(JSON.parse(text), { success: false, error: { code: "BAD_JSON", message: "The request body is not valid JSON" } });
    assert.ok(!/at .*\.ts:\d+/.test(text));
  });

  it("an oversized body answers 413 and changes nothing", async () => {
    const before = await server.ctx.db.prisma.user.count();
    const res = await fetch(`${server.url}/api/auth/guest`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ pad: "x".repeat(100_000) }),
    });
    assert.equal(res.status, 413);
    assert.equal((await res.json()).error.code, "PAYLOAD_TOO_LARGE");
    assert.equal(await server.ctx.db.prisma.user.count(), before);
  });
});

describe("health when the database hangs", function () {
  this.timeout(30_000);
  let server: TestServer;
  let hang = false;

  before(async () => {
    server = await startTestServer();
    const realPing = server.ctx.db.ping;
    server.ctx.db.ping = () => (hang ? new Promise<void>(() => {}) : realPing());
  });
  after(async () => {
    await server?.close();
  });

  it("answers 503 degraded within 3 s", async () => {
    hang = true;
    const started = performance.now();
    const res = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(3000) });
    const elapsed = performance.now() - started;
    assert.equal(res.status, 503);
    const body = await res.json();
    assert.equal(body.status, "degraded");
    assert.equal(body.database.status, "timeout");
    assert.ok(elapsed < 3000, `${elapsed} ms`);
    hang = false;
    assert.equal((await fetch(`${server.url}/health`)).status, 200);
  });

  it("answers 503 when the database is down", async () => {
    const realPing = server.ctx.db.ping;
    server.ctx.db.ping = () => Promise.reject(new Error("connection refused"));
    try {
      const res = await fetch(`${server.url}/health`);
      assert.equal(res.status, 503);
      assert.equal((await res.json()).database.status, "down");
    } finally {
      server.ctx.db.ping = realPing;
    }
  });
});

describe("health while the world is not running yet", function () {
  it("answers 503 starting (joins would find no room), then 200 once the world runs", async () => {
    let running = false;
    const app = express().use(healthRoutes({ db: { ping: async () => {} }, startedAt: Date.now(), worldRunning: async () => running }));
    const server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`;
    try {
      const starting = await fetch(url);
      assert.equal(starting.status, 503);
      const body = await starting.json();
      assert.equal(body.status, "starting");
      assert.equal(body.world, "starting");
      assert.equal(body.database.status, "ok");
      running = true;
      const up = await fetch(url);
      assert.equal(up.status, 200);
      assert.equal((await up.json()).world, "running");
    } finally {
      server.close();
    }
  });
});
