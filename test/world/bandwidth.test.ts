import assert from "node:assert/strict";
import WebSocket from "ws";
import { fetchMetrics, METRICS_CODE, samplesOf } from "../helpers/metrics.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { joinWorld } from "../helpers/worldClient.js";
import { theWorld, ticks } from "../helpers/worldRoom.js";

/** The bandwidth a world's connections carried, by metric, transport and type, from /metrics over HTTP. */
async function wire(server: TestServer) {
  const series = samplesOf(await fetchMetrics(server));
  return {
    series,
    of: (name: string, transport: string, type: string) =>
      series.find((s) => s.name === name && s.labels.world === "1" && s.labels.transport === transport && s.labels.type === type)?.value ?? 0,
    types: (name: string) => new Set(series.filter((s) => s.name === name).map((s) => s.labels.type)),
  };
}

describe("bandwidth in /metrics: bytes in and out per world, transport and message type", function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { ADMIN_CODE: METRICS_CODE } });
  });
  after(async () => {
    await server?.close();
  });

  it("/ws: every byte of the room's frames a socket received is counted under its type, and what it sent under the message's", async () => {
    const before = await wire(server);
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`);
    /** Bytes of each type of frame the socket received from its world (the adapter's own frames aside). */
    const got = new Map<string, number>();
    const frames: Array<{ type: string }> = [];
    ws.on("message", (data) => {
      const text = String(data);
      const f = JSON.parse(text) as { type: string };
      frames.push(f);
      got.set(f.type, (got.get(f.type) ?? 0) + Buffer.byteLength(text));
    });
    await new Promise((resolve) => ws.once("open", resolve));
    const room = await theWorld();
    const until = async (what: string, check: () => boolean) => {
      for (let i = 0; i < 50 && !check(); i++) await ticks(room, 1);
      assert.ok(check(), what);
    };
    await until("authenticated and a world:update", () => frames.some((f) => f.type === "world:update"));
    // A move (counted under its type) and an unknown event (counted as other, never as a label of its own).
    const move = JSON.stringify({ type: "player:move", data: { x: 101, z: 101 } });
    const bogus = JSON.stringify({ type: "zz:made-up-type", data: {} });
    ws.send(move);
    ws.send(bogus);
    await until("the unknown event refused", () => frames.some((f) => f.type === "error"));
    await ticks(room, 2);
    ws.close();
    await new Promise((resolve) => ws.once("close", resolve));

    const after = await wire(server);
    const sent = (type: string) => after.of("world_bytes_sent_total", "ws", type) - before.of("world_bytes_sent_total", "ws", type);
    for (const type of ["world:update", "player:sync"]) {
      assert.ok((got.get(type) ?? 0) > 0, `the socket got ${type}`);
      assert.equal(sent(type), got.get(type), `${type}: bytes counted = bytes the socket received`);
    }
    const framesOf = (type: string) => after.of("world_frames_sent_total", "ws", type) - before.of("world_frames_sent_total", "ws", type);
    assert.equal(
      framesOf("world:update"),
      frames.filter((f) => f.type === "world:update").length,
    );
    const received = (type: string) => after.of("world_bytes_received_total", "ws", type) - before.of("world_bytes_received_total", "ws", type);
    assert.equal(received("player:move"), Buffer.byteLength(move));
    assert.equal(received("other"), Buffer.byteLength(bogus));
    assert.ok(!after.types("world_bytes_received_total").has("zz:made-up-type"));
  });

  it("SDK: its schema frames (the first state, patches) and messages are counted, both ways", async () => {
    const before = await wire(server);
    const p = await joinWorld(server);
    const room = await theWorld();
    const mark = p.mark();
    p.room.send("player:move", { x: 102, z: 101 });
    p.room.send("zz:made-up-type", {});
    await p.next("player:sync", () => true, { since: mark });
    await ticks(room, 3);
    await p.room.leave();

    const after = await wire(server);
    const delta = (name: string, type: string) => after.of(name, "sdk", type) - before.of(name, "sdk", type);
    assert.ok(delta("world_bytes_sent_total", "join") > 0, "the join frame");
    assert.ok(delta("world_bytes_sent_total", "player:sync") > 0, "player:sync messages");
    assert.ok(delta("world_bytes_sent_total", "state") + delta("world_bytes_sent_total", "patch") > 0, "schema frames");
    assert.ok(delta("world_frames_sent_total", "player:sync") >= 1);
    // The move's frame: its type and a payload of a few bytes.
    const move = delta("world_bytes_received_total", "player:move");
    assert.ok(move > "player:move".length && move < 64, `player:move: ${move} bytes`);
    assert.ok(delta("world_bytes_received_total", "other") > "zz:made-up-type".length);
    assert.ok(!after.types("world_bytes_received_total").has("zz:made-up-type"));
  });
});
