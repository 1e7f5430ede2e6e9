import assert from "node:assert/strict";
import { matchMaker } from "@colyseus/core";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { ticks } from "../helpers/worldRoom.js";
import { joinWorld } from "../helpers/worldClient.js";

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;

describe("admin monitor", function () {
  this.timeout(30_000);

  describe("with ADMIN_CODE set", () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ env: { ADMIN_CODE: "let-me-in-42" } });
    });
    after(async () => {
      await server?.close();
    });

    it("answers 401 with a Basic challenge without credentials", async () => {
      const res = await fetch(`${server.url}/colyseus/`);
      assert.equal(res.status, 401);
      assert.match(res.headers.get("www-authenticate") ?? "", /^Basic /);
    });

    it("answers 401 with a wrong code", async () => {
      const res = await fetch(`${server.url}/colyseus/`, { headers: { authorization: basic("admin", "let-me-in-43") } });
      assert.equal(res.status, 401);
    });

    it("serves the monitor and its API with the code", async () => {
      const page = await fetch(`${server.url}/colyseus/`, { headers: { authorization: basic("admin", "let-me-in-42") } });
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<html|<!doctype/i);
      const api = await fetch(`${server.url}/colyseus/api`, { headers: { authorization: basic("anyone", "let-me-in-42") } });
      assert.equal(api.status, 200);
      const body = await api.json();
      assert.ok(Array.isArray(body.rooms));
      assert.ok(body.rooms.some((r: { name: string }) => r.name === "world"));
    });

    it("shows each client of the world with its character's name and account", async () => {
      const p = await joinWorld(server);
      try {
        const world = (
          await fetch(`${server.url}/colyseus/api`, { headers: { authorization: basic("admin", "let-me-in-42") } }).then((r) => r.json())
        ).rooms.find((r: { name: string }) => r.name === "world");
        const res = await fetch(`${server.url}/colyseus/api/room?roomId=${world.roomId}`, { headers: { authorization: basic("admin", "let-me-in-42") } });
        assert.equal(res.status, 200);
        const inspect = await res.json();
        const me = inspect.clients.find((c: { sessionId: string }) => c.sessionId === p.room.sessionId);
        assert.deepEqual([me.characterId, me.name, me.accountId, me.isAgent], [p.id, p.sync().name, p.accountId, false]);
      } finally {
        await p.leave();
      }
    });
  });

  describe("metrics", () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ env: { ADMIN_CODE: "let-me-in-42" } });
    });
    after(async () => {
      await server?.close();
    });

    it("GET /metrics needs the admin code and reports tick durations", async () => {
      assert.equal((await fetch(`${server.url}/metrics`)).status, 401);
      // Let the world tick twice (waiting for the ticks, not for time).
      const [listing] = await matchMaker.query({ name: "world" });
      await ticks(matchMaker.getLocalRoomById(listing.roomId) as unknown as WorldRoom, 2);
      const res = await fetch(`${server.url}/metrics`, { headers: { authorization: basic("admin", "let-me-in-42") } });
      assert.equal(res.status, 200);
      const text = await res.text();
      assert.match(text, /world_tick_duration_seconds_bucket\{le="0.005",phase="total"\}/);
      assert.match(text, /world_tick_duration_seconds_count\{phase="total"\} [1-9]/);
      // Each phase of the tick has its own series.
      for (const phase of [
        "players",
        "npcs",
        "resources",
        "groundItems",
        "events",
        "trades",
        "sync",
        "views",
        "send",
        "patch",
        "handOver",
        "save",
        "endTick",
      ]) {
        assert.match(text, new RegExp(`world_tick_duration_seconds_count\\{phase="${phase}"\\} [1-9]`), phase);
      }
      assert.match(text, /world_online_players\{world="1"\} \d+/);
      assert.match(text, /arena_process_info\{process_id="[\w-]+",cluster="false"\} 1/);
    });
  });

  describe("without ADMIN_CODE", () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
    });
    after(async () => {
      await server?.close();
    });

    it("is not served, and neither are the metrics", async () => {
      const res = await fetch(`${server.url}/colyseus/api`, { headers: { authorization: basic("admin", "") } });
      assert.notEqual(res.status, 200);
      assert.notEqual((await fetch(`${server.url}/metrics`)).status, 200);
    });
  });
});
