import assert from "node:assert/strict";
import { Client } from "@colyseus/sdk";
import { ColyseusTestServer } from "@colyseus/testing";
import WebSocket from "ws";
import { signToken } from "../../src/auth/tokens.js";
import { startTestServer, TEST_SECRET, type TestServer } from "../helpers/server.js";

describe("one port: HTTP, Colyseus and the reserved /ws path", function () {
  this.timeout(30_000);
  let server: TestServer;
  let colyseus: ColyseusTestServer;

  before(async () => {
    server = await startTestServer();
    colyseus = new ColyseusTestServer(server.arena.gameServer);
  });
  after(async () => {
    await server?.close();
  });

  it("a Colyseus client with a server token joins the world room", async () => {
    const guest = await (await fetch(`${server.url}/api/auth/guest`, { method: "POST" })).json();
    const sdk = new Client(server.url);
    sdk.auth.token = guest.token;
    const room = await sdk.joinOrCreate("world");
    await room.waitForInitialState?.();
    assert.equal(room.name, "world");
    const serverRoom = colyseus.getRoomById(room.roomId);
    assert.equal(serverRoom.clients.length, 1);
    await room.leave();
  });

  it("a Colyseus client without a valid token is refused", async () => {
    const sdk = new Client(server.url);
    await assert.rejects(sdk.joinOrCreate("world"));
    sdk.auth.token = signToken({ sub: "x" }, "wrong-secret-".padEnd(40, "z"));
    await assert.rejects(sdk.joinOrCreate("world"));
    sdk.auth.token = signToken({ sub: "no-such-account" }, TEST_SECRET);
    await assert.rejects(sdk.joinOrCreate("world"), /account does not exist/);
  });

  it("an upgrade at /ws is the JSON protocol's, not Colyseus's, and a bad token there harms nothing", async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=abc`);
    const frames: string[] = [];
    ws.on("message", (d) => frames.push(String(d)));
    const closed = await new Promise<{ code: number }>((resolve, reject) => {
      ws.on("close", (code) => resolve({ code }));
      ws.on("error", reject);
    });
    assert.equal(closed.code, 4001);
    assert.deepEqual(JSON.parse(frames[0]).data.code, "UNAUTHORIZED");
    assert.equal((await fetch(`${server.url}/health`)).status, 200);
  });

  it("an upgrade at any other unknown path is refused without harm", async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/not-a-room`);
    await new Promise<void>((resolve) => {
      ws.on("error", () => resolve());
      ws.on("close", () => resolve());
    });
    assert.equal((await fetch(`${server.url}/status`)).status, 200);
  });
});
