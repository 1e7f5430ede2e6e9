import assert from "node:assert/strict";
import http from "node:http";
import { matchMaker } from "@colyseus/core";
import { Client } from "@colyseus/sdk";
import { RATE_LIMITS } from "../../src/http/rateLimit.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken } from "../helpers/worldClient.js";

/** Matchmaking as a stranger would call it: only the server makes rooms, every call is counted, bad bodies are refused. */

const worldRooms = async () => (await matchMaker.query({ name: "world" })).length;
const allRooms = async () => (await matchMaker.query({})).length;

function matchmake(server: TestServer, path: string, body: unknown = {}, headers: Record<string, string> = {}) {
  return fetch(`${server.url}/matchmake/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function errorOf(res: Response) {
  const body = await res.json();
  assert.equal(body.success, false);
  assert.equal(typeof body.error.code, "string");
  assert.equal(typeof body.error.message, "string");
  assert.equal(body.message, body.error.message, "the SDK reads `message`");
  return body.error as { code: string; message: string };
}

describe("matchmaking: rooms only the server makes", function () {
  this.timeout(60_000);
  let server: TestServer;
  afterEach(async () => {
    await server?.close();
  });

  it("create is refused with or without a token, and makes no room", async () => {
    server = await startTestServer();
    const before = await allRooms();
    const stranger = await matchmake(server, "create/world");
    assert.equal(stranger.status, 403);
    assert.equal((await errorOf(stranger)).code, "ROOM_CREATION_FORBIDDEN");
    const { token } = await guestToken(server);
    const player = await matchmake(server, "create/world", {}, { authorization: `Bearer ${token}` });
    assert.equal(player.status, 403);
    assert.equal((await errorOf(player)).code, "ROOM_CREATION_FORBIDDEN");
    for (const name of ["trade", "nothing"]) assert.ok([403, 404].includes((await matchmake(server, `create/${name}`)).status));
    assert.equal(await allRooms(), before);
    assert.equal(await worldRooms(), 1);
  });

  it("the SDK's create is refused; joinOrCreate with options that match no room joins the one world", async () => {
    server = await startTestServer();
    const { token } = await guestToken(server);
    const sdk = new Client(server.url);
    sdk.auth.token = token;
    await assert.rejects(sdk.create("world"), (err: { code?: number; message?: string }) => err.code === 403 && /made by the server/.test(String(err.message)));
    const room = await sdk.joinOrCreate("world", { private: true, mode: "other", maxClients: 1 });
    const [world] = await matchMaker.query({ name: "world" });
    assert.equal(room.roomId, world!.roomId);
    assert.equal(await worldRooms(), 1);
    await room.leave();
  });

  it("trade rooms are joined only by id with a reserved seat; unknown room types and ids are 404", async () => {
    server = await startTestServer();
    const { token } = await guestToken(server);
    const auth = { authorization: `Bearer ${token}` };
    const join = await matchmake(server, "join/trade", {}, auth);
    assert.equal(join.status, 403);
    assert.equal((await errorOf(join)).code, "JOIN_BY_ID_ONLY");
    const joc = await matchmake(server, "joinOrCreate/trade", {}, auth);
    assert.equal(joc.status, 403);
    const unknownType = await matchmake(server, "joinOrCreate/castle", {}, auth);
    assert.equal(unknownType.status, 404);
    assert.equal((await errorOf(unknownType)).code, "ROOM_TYPE_NOT_FOUND");
    const unknownId = await matchmake(server, "joinById/no_such_room", {}, auth);
    assert.equal(unknownId.status, 404);
    assert.equal((await errorOf(unknownId)).code, "ROOM_NOT_FOUND");
    const unknownMethod = await matchmake(server, "destroy/world", {}, auth);
    assert.equal(unknownMethod.status, 404);
    assert.equal(await allRooms(), 1);
  });

  it("bad bodies: not JSON, not an object, 5,000 deep, a gzip header on plain text, 1 MB: 4xx with the documented body", async () => {
    server = await startTestServer();
    const { token } = await guestToken(server);
    const auth = { authorization: `Bearer ${token}` };
    const cases: Array<[string, number, Record<string, string>?]> = [
      ["{not json", 400],
      ["[1,2,3]", 400],
      ['"text"', 400],
      [`{"a":${"[".repeat(5000)}${"]".repeat(5000)}}`, 400],
      ["{}", 400, { "content-encoding": "gzip" }],
      [JSON.stringify({ name: "x".repeat(1024 * 1024) }), 413],
      ['{"characterId":"c_\\u0000"}', 400],
      ['{"characterId":"\\ud800"}', 400],
    ];
    for (const [body, status, headers] of cases) {
      const res = await matchmake(server, "joinOrCreate/world", body, { ...auth, ...headers });
      assert.equal(res.status, status, `${body.slice(0, 30)} -> ${res.status}`);
      await errorOf(res);
    }
    for (const path of ["joinById/%ZZ", "joinById/a%00b", "joinOrCreate/world?x=%ud800"]) {
      const res = await matchmake(server, path, {}, auth);
      assert.equal(res.status, 400, path);
      assert.equal((await errorOf(res)).code, "BAD_REQUEST");
    }
    assert.equal(await allRooms(), 1);
  });

  it("a 10 MB upload is answered 413, not a connection reset", async () => {
    server = await startTestServer();
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${server.url}/matchmake/joinOrCreate/world`, { method: "POST", headers: { "content-type": "application/json" } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on("error", reject);
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      for (let i = 0; i < 160; i++) req.write(chunk);
      req.end();
    });
    assert.equal(status, 413);
  });

  it("1,000 create requests from a stranger make no room; past the documented limit they are 429 with Retry-After", async () => {
    server = await startTestServer({ rateLimits: RATE_LIMITS });
    const before = await allRooms();
    const statuses = new Map<number, number>();
    let retryAfter: string | null = null;
    for (let i = 0; i < 1000; i++) {
      const res = await matchmake(server, "create/world");
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 429) retryAfter = res.headers.get("retry-after");
      await res.body?.cancel();
    }
    assert.equal(statuses.get(403), RATE_LIMITS.rest.points);
    assert.equal(statuses.get(429), 1000 - RATE_LIMITS.rest.points);
    assert.ok(Number(retryAfter) >= 1);
    assert.equal(await allRooms(), before);
  });

  it("matchmaking counts against the same per-client budget as REST calls", async () => {
    server = await startTestServer({ rateLimits: { ...RATE_LIMITS, rest: { points: 5, durationS: 60 } } });
    const { token } = await guestToken(server);
    const auth = { authorization: `Bearer ${token}` };
    // Three REST calls and two joins spend the account's five.
    for (let i = 0; i < 3; i++) assert.equal((await fetch(`${server.url}/api/auth/me`, { headers: auth })).status, 200);
    for (let i = 0; i < 2; i++) {
      const res = await matchmake(server, "joinOrCreate/world", {}, auth);
      assert.equal(res.status, 200);
      await res.body?.cancel();
    }
    const refused = await matchmake(server, "joinOrCreate/world", {}, auth);
    assert.equal(refused.status, 429);
    assert.equal((await errorOf(refused)).code, "RATE_LIMITED");
  });
});
