import assert from "node:assert/strict";
import { signToken } from "../../src/auth/tokens.js";
import { startTestServer, TEST_SECRET, type TestServer } from "../helpers/server.js";
import { guestToken, joinWorld } from "../helpers/worldClient.js";
import { rest } from "../helpers/rest.js";

let counter = 0;
/** A character name no other test uses (1-12 letters and digits). */
const uniqueName = (prefix = "S") => `${prefix}${(++counter).toString(36)}${Math.random().toString(36).slice(2, 7)}`.slice(0, 12);

interface Someone {
  token: string;
  accountId: string;
  /** The account's first character. */
  id: string;
  name: string;
}

/** /api/player/friends, /ignore, /lookup and /trades over real HTTP. */
describe("social REST API", function () {
  this.timeout(60_000);
  let server: TestServer;
  const call = (method: string, path: string, token?: string, body?: unknown) => rest(server, method, path, token, body);
  /** A guest account with one character. */
  const someone = async (): Promise<Someone> => {
    const who = await guestToken(server);
    const r = await call("POST", "/api/character", who.token, { name: uniqueName() });
    assert.equal(r.status, 201);
    return { ...who, id: r.body.character.id, name: r.body.character.name };
  };
  const expectError = (r: { status: number; body: any }, status: number, code?: string) => {
    assert.equal(r.status, status, JSON.stringify(r.body));
    assert.equal(r.body.success, false);
    if (code) assert.equal(r.body.error.code, code);
  };

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  describe("friends", () => {
    it("a request by name (any case) is pending for both; accepting makes them friends both ways", async () => {
      const a = await someone();
      const b = await someone();
      const sent = await call("POST", "/api/player/friends/request", a.token, { name: b.name.toUpperCase() });
      assert.equal(sent.status, 201);
      assert.equal(sent.body.accepted, false);
      assert.equal(sent.body.request.status, "pending");
      assert.equal(sent.body.request.to.id, b.id);
      const requestId = sent.body.request.id;

      const theirs = await call("GET", "/api/player/friends/requests", b.token);
      assert.equal(theirs.status, 200);
      assert.deepEqual(
        theirs.body.incoming.map((r: any) => [r.id, r.from.id, r.from.name]),
        [[requestId, a.id, a.name]],
      );
      assert.deepEqual(theirs.body.outgoing, []);
      const mine = await call("GET", "/api/player/friends/requests", a.token);
      assert.deepEqual(
        mine.body.outgoing.map((r: any) => [r.id, r.to.id]),
        [[requestId, b.id]],
      );
      assert.deepEqual(mine.body.incoming, []);

      const accepted = await call("POST", "/api/player/friends/accept", b.token, { requestId });
      assert.equal(accepted.status, 200);
      assert.equal(accepted.body.friend.id, a.id);
      for (const [me, them] of [
        [a, b],
        [b, a],
      ]) {
        const friends = await call("GET", "/api/player/friends", me.token);
        assert.equal(friends.status, 200);
        assert.deepEqual(
          friends.body.friends.map((f: any) => [f.id, f.name, f.online]),
          [[them.id, them.name, false]],
        );
        assert.ok(!Number.isNaN(Date.parse(friends.body.friends[0].since)));
        assert.deepEqual((await call("GET", "/api/player/friends/requests", me.token)).body, { success: true, characterId: me.id, incoming: [], outgoing: [] });
      }
      expectError(await call("POST", "/api/player/friends/request", b.token, { characterId: a.id }), 400, "ALREADY_FRIENDS");
      expectError(await call("POST", "/api/player/friends/accept", b.token, { requestId }), 400, "REQUEST_NOT_PENDING");
    });

    it("a friend's online status shows while they are in the world, and nothing private", async () => {
      const a = await someone();
      const b = await someone();
      const { body } = await call("POST", "/api/player/friends/request", a.token, { characterId: b.id });
      await call("POST", "/api/player/friends/accept", b.token, { requestId: body.request.id });
      const p = await joinWorld(server, { characterId: b.id }, b);
      try {
        const friends = await call("GET", "/api/player/friends", a.token);
        const f = friends.body.friends[0];
        assert.equal(f.online, true);
        assert.equal(f.world, 1, "the world the friend is in");
        assert.deepEqual(Object.keys(f).sort(), ["combatLevel", "id", "isAgent", "name", "online", "since", "world"]);
      } finally {
        await p.leave();
      }
    });

    it("asking someone who already asked you accepts their request", async () => {
      const a = await someone();
      const b = await someone();
      const first = await call("POST", "/api/player/friends/request", a.token, { characterId: b.id });
      const back = await call("POST", "/api/player/friends/request", b.token, { characterId: a.id });
      assert.equal(back.status, 200);
      assert.equal(back.body.accepted, true);
      assert.equal(back.body.requestId, first.body.request.id);
      assert.deepEqual(
        (await call("GET", "/api/player/friends", a.token)).body.friends.map((f: any) => f.id),
        [b.id],
      );
      const row = await server.ctx.db.prisma.friendRequest.findUniqueOrThrow({ where: { id: first.body.request.id } });
      assert.equal(row.status, "accepted");
      assert.ok(row.respondedAt);
    });

    it("decline and withdraw close a request; only its recipient (or sender) may (403), unknown ones are 404", async () => {
      const a = await someone();
      const b = await someone();
      const stranger = await someone();
      const r1 = (await call("POST", "/api/player/friends/request", a.token, { characterId: b.id })).body.request.id;
      expectError(await call("POST", "/api/player/friends/request", a.token, { characterId: b.id }), 400, "ALREADY_REQUESTED");

      expectError(await call("POST", "/api/player/friends/accept", stranger.token, { requestId: r1 }), 403, "NOT_YOUR_REQUEST");
      expectError(await call("POST", "/api/player/friends/accept", a.token, { requestId: r1 }), 403, "NOT_YOUR_REQUEST");
      expectError(await call("POST", "/api/player/friends/decline", stranger.token, { requestId: r1 }), 403, "NOT_YOUR_REQUEST");
      expectError(await call("DELETE", `/api/player/friends/requests/${r1}`, b.token), 403, "NOT_YOUR_REQUEST");
      expectError(await call("POST", "/api/player/friends/accept", b.token, { requestId: "fr_nope" }), 404, "REQUEST_NOT_FOUND");
      expectError(await call("POST", "/api/player/friends/decline", b.token, { requestId: "fr_nope" }), 404, "REQUEST_NOT_FOUND");
      expectError(await call("DELETE", "/api/player/friends/requests/fr_nope", a.token), 404, "REQUEST_NOT_FOUND");

      const declined = await call("POST", "/api/player/friends/decline", b.token, { requestId: r1 });
      assert.deepEqual(declined.body, { success: true, requestId: r1, status: "declined" });
      expectError(await call("POST", "/api/player/friends/decline", b.token, { requestId: r1 }), 400, "REQUEST_NOT_PENDING");
      assert.deepEqual((await call("GET", "/api/player/friends", a.token)).body.friends, []);
      assert.deepEqual((await call("GET", "/api/player/friends/requests", a.token)).body.outgoing, []);

      // Asking again after a decline is a new request; its sender may withdraw it.
      const r2 = (await call("POST", "/api/player/friends/request", a.token, { characterId: b.id })).body.request.id;
      assert.notEqual(r2, r1);
      const withdrawn = await call("DELETE", `/api/player/friends/requests/${r2}`, a.token);
      assert.deepEqual(withdrawn.body, { success: true, requestId: r2, status: "cancelled" });
      assert.deepEqual((await call("GET", "/api/player/friends/requests", b.token)).body.incoming, []);
      expectError(await call("POST", "/api/player/friends/accept", b.token, { requestId: r2 }), 400, "REQUEST_NOT_PENDING");
    });

    it("DELETE /friends/:characterId ends the friendship for both; 404 when not friends", async () => {
      const a = await someone();
      const b = await someone();
      const r = (await call("POST", "/api/player/friends/request", a.token, { characterId: b.id })).body.request.id;
      await call("POST", "/api/player/friends/accept", b.token, { requestId: r });
      const removed = await call("DELETE", `/api/player/friends/${a.id}`, b.token);
      assert.deepEqual(removed.body, { success: true, removed: a.id });
      assert.deepEqual((await call("GET", "/api/player/friends", a.token)).body.friends, []);
      assert.deepEqual((await call("GET", "/api/player/friends", b.token)).body.friends, []);
      expectError(await call("DELETE", `/api/player/friends/${a.id}`, b.token), 404, "NOT_FRIENDS");
      expectError(await call("DELETE", "/api/player/friends/c_nobody", b.token), 404, "NOT_FRIENDS");
    });

    it("refuses yourself (400), unknown players (404) and bad bodies (400 naming the field)", async () => {
      const a = await someone();
      expectError(await call("POST", "/api/player/friends/request", a.token, { characterId: a.id }), 400, "CANNOT_FRIEND_SELF");
      expectError(await call("POST", "/api/player/friends/request", a.token, { name: a.name.toLowerCase() }), 400, "CANNOT_FRIEND_SELF");
      expectError(await call("POST", "/api/player/friends/request", a.token, { characterId: "c_nobody" }), 404, "PLAYER_NOT_FOUND");
      expectError(await call("POST", "/api/player/friends/request", a.token, { name: "Nobody Here" }), 404, "PLAYER_NOT_FOUND");
      for (const [path, body, field] of [
        ["/api/player/friends/request", {}, "characterId"],
        ["/api/player/friends/request", { characterId: a.id, name: a.name }, "characterId"],
        ["/api/player/friends/request", { name: "bad!name" }, "name"],
        ["/api/player/friends/request", { characterId: 7 }, "characterId"],
        ["/api/player/friends/request", { name: "Someone", extra: 1 }, "body"],
        ["/api/player/friends/accept", {}, "requestId"],
        ["/api/player/friends/decline", { requestId: "" }, "requestId"],
      ] as const) {
        const r = await call("POST", path, a.token, body);
        expectError(r, 400, "INVALID_PAYLOAD");
        assert.ok(r.body.error.message.startsWith(field), `${path} ${JSON.stringify(body)}: ${r.body.error.message}`);
      }
    });

    it("?characterId= picks another of the caller's characters; someone else's is 403; no character is 404", async () => {
      const a = await someone();
      const b = await someone();
      const alt = (await call("POST", "/api/character", a.token, { name: uniqueName() })).body.character;
      const r = await call("POST", `/api/player/friends/request?characterId=${alt.id}`, a.token, { characterId: b.id });
      assert.equal(r.status, 201);
      // The request is addressed to b's character: b accepts it, whatever b's current character.
      await call("POST", "/api/player/friends/accept", b.token, { requestId: r.body.request.id });
      assert.deepEqual(
        (await call("GET", `/api/player/friends?characterId=${alt.id}`, a.token)).body.friends.map((f: any) => f.id),
        [b.id],
      );
      assert.deepEqual((await call("GET", "/api/player/friends", a.token)).body.friends, [], "the first character has no friends");
      expectError(await call("GET", `/api/player/friends?characterId=${a.id}`, b.token), 403);
      expectError(await call("POST", `/api/player/friends/request?characterId=${a.id}`, b.token, { characterId: alt.id }), 403);
      expectError(await call("GET", "/api/player/friends?characterId=c_nobody", b.token), 404);
      const fresh = await guestToken(server);
      expectError(await call("GET", "/api/player/friends", fresh.token), 404, "NO_CHARACTER");
      expectError(await call("GET", "/api/player/friends/requests", fresh.token), 404, "NO_CHARACTER");
    });

    it("401 without a valid token", async () => {
      for (const [method, path] of [
        ["GET", "/api/player/friends"],
        ["GET", "/api/player/friends/requests"],
        ["POST", "/api/player/friends/request"],
        ["POST", "/api/player/friends/accept"],
        ["POST", "/api/player/friends/decline"],
        ["DELETE", "/api/player/friends/requests/fr_x"],
        ["DELETE", "/api/player/friends/c_x"],
      ]) {
        expectError(await call(method, path, undefined, method === "POST" ? {} : undefined), 401);
        expectError(await call(method, path, "not-a-token", method === "POST" ? {} : undefined), 401);
      }
    });
  });

  describe("ignore list", () => {
    it("add by name or id, list, remove; per account, so every character of it sees the same list", async () => {
      const a = await someone();
      const b = await someone();
      const c = await someone();
      const added = await call("POST", "/api/player/ignore", a.token, { name: b.name.toLowerCase() });
      assert.equal(added.status, 201);
      assert.equal(added.body.ignored.id, b.id);
      assert.equal((await call("POST", "/api/player/ignore", a.token, { characterId: c.id })).status, 201);
      const alt = (await call("POST", "/api/character", a.token, { name: uniqueName() })).body.character;
      for (const q of ["", `?characterId=${alt.id}`]) {
        const list = await call("GET", `/api/player/ignore${q}`, a.token);
        assert.equal(list.status, 200);
        assert.deepEqual(
          list.body.ignored.map((e: any) => [e.id, e.name]),
          [
            [b.id, b.name],
            [c.id, c.name],
          ],
        );
        assert.ok(!Number.isNaN(Date.parse(list.body.ignored[0].since)));
      }
      expectError(await call("POST", "/api/player/ignore", a.token, { characterId: b.id }), 400, "ALREADY_IGNORED");
      const removed = await call("DELETE", `/api/player/ignore/${b.id}`, a.token);
      assert.deepEqual(removed.body, { success: true, removed: b.id });
      assert.deepEqual(
        (await call("GET", "/api/player/ignore", a.token)).body.ignored.map((e: any) => e.id),
        [c.id],
      );
      expectError(await call("DELETE", `/api/player/ignore/${b.id}`, a.token), 404, "NOT_IGNORED");
      expectError(await call("DELETE", "/api/player/ignore/c_nobody", a.token), 404, "NOT_IGNORED");
      // b's own list is untouched.
      assert.deepEqual((await call("GET", "/api/player/ignore", b.token)).body.ignored, []);
    });

    it("refuses your own characters (400), unknown players (404) and bad bodies (400)", async () => {
      const a = await someone();
      const alt = (await call("POST", "/api/character", a.token, { name: uniqueName() })).body.character;
      expectError(await call("POST", "/api/player/ignore", a.token, { characterId: a.id }), 400, "CANNOT_IGNORE_SELF");
      expectError(await call("POST", "/api/player/ignore", a.token, { name: alt.name }), 400, "CANNOT_IGNORE_SELF");
      expectError(await call("POST", "/api/player/ignore", a.token, { characterId: "c_nobody" }), 404, "PLAYER_NOT_FOUND");
      expectError(await call("POST", "/api/player/ignore", a.token, { name: "Nobody Here" }), 404, "PLAYER_NOT_FOUND");
      expectError(await call("POST", "/api/player/ignore", a.token, {}), 400, "INVALID_PAYLOAD");
      expectError(await call("POST", "/api/player/ignore", a.token, { name: "x".repeat(13) }), 400, "INVALID_PAYLOAD");
    });

    it("an ignored player's friend request is not shown to the ignoring player (the sender sees it pending)", async () => {
      const a = await someone();
      const b = await someone();
      await call("POST", "/api/player/ignore", b.token, { characterId: a.id });
      const sent = await call("POST", "/api/player/friends/request", a.token, { characterId: b.id });
      assert.equal(sent.status, 201);
      assert.deepEqual((await call("GET", "/api/player/friends/requests", b.token)).body.incoming, []);
      assert.equal((await call("GET", "/api/player/friends/requests", a.token)).body.outgoing.length, 1);
      await call("DELETE", `/api/player/ignore/${a.id}`, b.token);
      assert.equal((await call("GET", "/api/player/friends/requests", b.token)).body.incoming.length, 1);
    });

    it("401 without a valid token", async () => {
      expectError(await call("GET", "/api/player/ignore"), 401);
      expectError(await call("POST", "/api/player/ignore", undefined, { characterId: "c_x" }), 401);
      expectError(await call("DELETE", "/api/player/ignore/c_x", "not-a-token"), 401);
    });
  });

  describe("lookup", () => {
    it("finds a player by name ignoring case: id, name, combat level, online", async () => {
      const a = await someone();
      const b = await someone();
      const found = await call("GET", `/api/player/lookup?name=${encodeURIComponent(b.name.toUpperCase())}`, a.token);
      assert.equal(found.status, 200);
      assert.deepEqual(found.body, { success: true, player: { id: b.id, name: b.name, combatLevel: 3, online: false, world: null } });
      const p = await joinWorld(server, { characterId: b.id }, b);
      try {
        assert.equal((await call("GET", `/api/player/lookup?name=${b.name}`, a.token)).body.player.online, true);
      } finally {
        await p.leave();
      }
    });

    it("404 for an unknown name, 400 for a bad or missing one, 401 without a token", async () => {
      const a = await someone();
      expectError(await call("GET", "/api/player/lookup?name=Nobody%20Here", a.token), 404, "PLAYER_NOT_FOUND");
      expectError(await call("GET", "/api/player/lookup?name=bad%21name", a.token), 400, "INVALID_PAYLOAD");
      expectError(await call("GET", "/api/player/lookup", a.token), 400, "INVALID_PAYLOAD");
      expectError(await call("GET", "/api/player/lookup?name=%25", a.token), 400, "INVALID_PAYLOAD");
      expectError(await call("GET", `/api/player/lookup?name=${a.name}`), 401);
    });
  });

  describe("trade history", () => {
    it("the current character's trades, newest first, from its side; limit bounded 1..100", async () => {
      const a = await someone();
      const b = await someone();
      const prisma = server.ctx.db.prisma;
      const at = (s: number) => new Date(Date.UTC(2024, 0, 1, 0, 0, s));
      const trade = (id: string, s: number, initiator: Someone, recipient: Someone) =>
        prisma.trade.create({
          data: {
            id,
            initiatorId: initiator.id,
            recipientId: recipient.id,
            initiatorName: initiator.name,
            recipientName: recipient.name,
            initiatorOffer: [{ inventorySlot: 3, itemId: "logs", quantity: 2 }],
            recipientOffer: [{ inventorySlot: 0, itemId: "coins", quantity: 10 }],
            initiatorValue: 8n,
            recipientValue: 10n,
            completedAt: at(s),
          },
        });
      await trade(`t_${a.id}_1`, 1, a, b);
      await trade(`t_${a.id}_3`, 3, b, a);
      await trade(`t_${a.id}_2`, 2, a, b);
      const all = await call("GET", "/api/player/trades", a.token);
      assert.equal(all.status, 200);
      assert.deepEqual(
        all.body.trades.map((t: any) => t.id),
        [`t_${a.id}_3`, `t_${a.id}_2`, `t_${a.id}_1`],
      );
      assert.deepEqual(all.body.trades[0], {
        id: `t_${a.id}_3`,
        completedAt: at(3).toISOString(),
        role: "recipient",
        partner: { id: b.id, name: b.name },
        gave: [{ itemId: "coins", quantity: 10 }],
        received: [{ itemId: "logs", quantity: 2 }],
        valueGiven: 10,
        valueReceived: 8,
      });
      assert.equal(all.body.trades[1].role, "initiator");
      assert.deepEqual(all.body.trades[1].gave, [{ itemId: "logs", quantity: 2 }]);
      assert.deepEqual(
        (await call("GET", "/api/player/trades?limit=2", a.token)).body.trades.map((t: any) => t.id),
        [`t_${a.id}_3`, `t_${a.id}_2`],
      );
      assert.equal((await call("GET", "/api/player/trades", b.token)).body.trades.length, 3, "the partner sees them too");
      const stranger = await someone();
      assert.deepEqual((await call("GET", "/api/player/trades", stranger.token)).body.trades, []);
      // Admins (of the database; a token's claim grants nothing) may read anyone's.
      const claimsAdmin = signToken({ sub: stranger.accountId, role: "admin" }, TEST_SECRET);
      assert.equal((await call("GET", `/api/player/trades?characterId=${a.id}`, claimsAdmin)).status, 403);
      await server.ctx.db.prisma.user.update({ where: { id: stranger.accountId }, data: { roles: ["admin"] } });
      assert.equal((await call("GET", `/api/player/trades?characterId=${a.id}`, stranger.token)).body.trades.length, 3);
    });

    it("400 for a bad limit, 403 for someone else's character, 404 without a character, 401 without a token", async () => {
      const a = await someone();
      const b = await someone();
      for (const limit of ["0", "101", "abc", "2.5", "-1"]) {
        const r = await call("GET", `/api/player/trades?limit=${limit}`, a.token);
        expectError(r, 400, "INVALID_PAYLOAD");
        assert.ok(r.body.error.message.startsWith("limit"), r.body.error.message);
      }
      expectError(await call("GET", `/api/player/trades?characterId=${b.id}`, a.token), 403);
      expectError(await call("GET", "/api/player/trades?characterId=c_nobody", a.token), 404);
      expectError(await call("GET", "/api/player/trades", (await guestToken(server)).token), 404, "NO_CHARACTER");
      expectError(await call("GET", "/api/player/trades"), 401);
    });
  });
});
