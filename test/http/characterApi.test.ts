import assert from "node:assert/strict";
import { signToken } from "../../src/auth/tokens.js";
import { startTestServer, TEST_SECRET, type TestServer } from "../helpers/server.js";
import { guestToken, joinWorld } from "../helpers/worldClient.js";
import { leaveAndSettle } from "../helpers/worldRoom.js";
import { rest } from "../helpers/rest.js";

let counter = 0;
/** A character name no other test uses (1-12 letters and digits). */
const uniqueName = (prefix = "C") => `${prefix}${(++counter).toString(36)}${Math.random().toString(36).slice(2, 7)}`.slice(0, 12);

/** /api/character (own characters) and /api/template (character templates) over real HTTP. */
describe("character and template REST API", function () {
  this.timeout(60_000);
  const MAX = 2;
  let server: TestServer;
  const call = (method: string, path: string, token?: string, body?: unknown) => rest(server, method, path, token, body);
  const create = async (token: string, body: Record<string, unknown>) => {
    const r = await call("POST", "/api/character", token, body);
    assert.equal(r.status, 201, JSON.stringify(r.body));
    return r.body.character;
  };

  before(async () => {
    server = await startTestServer({ env: { MAX_CHARACTERS_PER_ACCOUNT: String(MAX) } });
  });
  after(async () => {
    await server.close();
  });

  describe("/api/character", () => {
    it("GET lists the account's characters with combat level, agent flag, online flag and creation time", async () => {
      const who = await guestToken(server);
      const empty = await call("GET", "/api/character", who.token);
      assert.equal(empty.status, 200);
      assert.deepEqual(empty.body, { success: true, characters: [], maxCharacters: MAX });
      const first = await create(who.token, { name: uniqueName() });
      const second = await create(who.token, { name: uniqueName() });
      const p = await joinWorld(server, { characterId: first.id }, who);
      try {
        const list = await call("GET", "/api/character", who.token);
        assert.equal(list.status, 200);
        assert.deepEqual(
          list.body.characters.map((c: any) => [c.id, c.name, c.online]),
          [
            [first.id, first.name, true],
            [second.id, second.name, false],
          ],
        );
        for (const c of list.body.characters) {
          assert.deepEqual(Object.keys(c).sort(), ["combatLevel", "createdAt", "id", "isAgent", "name", "online"]);
          assert.equal(c.combatLevel, 3);
          assert.equal(c.isAgent, false);
          assert.ok(!Number.isNaN(Date.parse(c.createdAt)));
        }
        // Someone else's characters are not listed.
        const other = await guestToken(server);
        assert.deepEqual((await call("GET", "/api/character", other.token)).body.characters, []);
      } finally {
        await p.leave();
      }
    });

    it("POST creates a character with the starter kit, or a template's levels and items on top of it", async () => {
      const who = await guestToken(server);
      const plain = await create(who.token, { name: uniqueName() });
      assert.equal(plain.online, false);
      const plainView = (await call("GET", `/api/v1/player?characterId=${plain.id}`, who.token)).body.player;
      assert.ok(
        plainView.inventory.some((s: any) => s.itemId === "coins" && s.quantity === 25),
        "starter kit",
      );
      assert.ok(!plainView.inventory.some((s: any) => s.itemId === "logs"));

      const woodsman = await create(who.token, { name: uniqueName(), templateId: "woodsman" });
      const skills = (await call("GET", `/api/characters/${woodsman.id}/skills`, who.token)).body.skills;
      assert.equal(skills.woodcutting.level, 5);
      assert.equal(skills.firemaking.level, 3);
      assert.equal(skills.mining.level, 1);
      const view = (await call("GET", `/api/v1/player?characterId=${woodsman.id}`, who.token)).body.player;
      const logs = view.inventory.filter((s: any) => s.itemId === "logs").reduce((n: number, s: any) => n + s.quantity, 0);
      assert.equal(logs, 5);
      assert.ok(
        view.inventory.some((s: any) => s.itemId === "coins" && s.quantity === 25),
        "the starter kit too",
      );
    });

    it("POST refuses bad input (400 naming the field), taken names, unknown templates (404) and more than the limit", async () => {
      const who = await guestToken(server);
      for (const [body, field] of [
        [{}, "name"],
        [{ name: "" }, "name"],
        [{ name: "bad!name" }, "name"],
        [{ name: "much too long name" }, "name"],
        [{ name: uniqueName(), templateId: 5 }, "templateId"],
        [{ name: uniqueName(), levels: { attack: 99 } }, "body"],
      ] as const) {
        const r = await call("POST", "/api/character", who.token, body);
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.equal(r.body.error.code, "INVALID_PAYLOAD");
        assert.ok(r.body.error.message.startsWith(field), `${JSON.stringify(body)}: ${r.body.error.message}`);
      }
      assert.equal((await call("POST", "/api/character", who.token, "{nope")).status, 400);
      const unknown = await call("POST", "/api/character", who.token, { name: uniqueName(), templateId: "no_such_template" });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error.code, "TEMPLATE_NOT_FOUND");

      const taken = await create(who.token, { name: uniqueName("Taken") });
      const clash = await call("POST", "/api/character", who.token, { name: taken.name.toUpperCase() });
      assert.equal(clash.status, 400);
      assert.equal(clash.body.error.code, "NAME_TAKEN");

      await create(who.token, { name: uniqueName() });
      const over = await call("POST", "/api/character", who.token, { name: uniqueName() });
      assert.equal(over.status, 400);
      assert.equal(over.body.error.code, "CHARACTER_LIMIT");
      assert.equal((await call("GET", "/api/character", who.token)).body.characters.length, MAX, "nothing was made");
    });

    it("the limit holds when creations race", async () => {
      const who = await guestToken(server);
      const results = await Promise.all(Array.from({ length: 5 }, () => call("POST", "/api/character", who.token, { name: uniqueName("R") })));
      assert.equal(results.filter((r) => r.status === 201).length, MAX, JSON.stringify(results.map((r) => r.status)));
      for (const r of results.filter((x) => x.status !== 201)) assert.equal(r.body.error.code, "CHARACTER_LIMIT");
      assert.equal((await call("GET", "/api/character", who.token)).body.characters.length, MAX);
    });

    it("DELETE removes the caller's own character (and frees a place); 404 unknown, 403 someone else's", async () => {
      const who = await guestToken(server);
      const other = await guestToken(server);
      const a = await create(who.token, { name: uniqueName() });
      const b = await create(who.token, { name: uniqueName() });
      const theirs = await create(other.token, { name: uniqueName() });

      const forbidden = await call("DELETE", `/api/character/${theirs.id}`, who.token);
      assert.equal(forbidden.status, 403);
      const missing = await call("DELETE", "/api/character/c_no_such_character", who.token);
      assert.equal(missing.status, 404);
      assert.equal(missing.body.error.code, "CHARACTER_NOT_FOUND");

      const gone = await call("DELETE", `/api/character/${a.id}`, who.token);
      assert.equal(gone.status, 200);
      assert.deepEqual(gone.body, { success: true, deleted: a.id });
      assert.deepEqual(
        (await call("GET", "/api/character", who.token)).body.characters.map((c: any) => c.id),
        [b.id],
      );
      assert.equal(await server.ctx.db.prisma.character.count({ where: { id: a.id } }), 0);
      assert.equal((await call("DELETE", `/api/character/${a.id}`, who.token)).status, 404, "already gone");
      // The place it held is free again.
      await create(who.token, { name: uniqueName() });
      assert.equal((await call("GET", "/api/character", other.token)).body.characters.length, 1, "the other account's character is untouched");
    });

    it("DELETE is refused while the character is in the world (400 CHARACTER_ONLINE), and works once it left", async () => {
      const who = await guestToken(server);
      const c = await create(who.token, { name: uniqueName() });
      const p = await joinWorld(server, { characterId: c.id }, who);
      const refused = await call("DELETE", `/api/character/${c.id}`, who.token);
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error.code, "CHARACTER_ONLINE");
      await leaveAndSettle(p);
      assert.equal((await call("DELETE", `/api/character/${c.id}`, who.token)).status, 200);
    });

    it("agents: an agent token may not create or delete characters and lists only its own; a running agent's character is kept", async () => {
      const who = await guestToken(server);
      const c = await create(who.token, { name: uniqueName() });
      const prisma = server.ctx.db.prisma;
      await prisma.character.update({ where: { id: c.id }, data: { isAgent: true } });
      await prisma.agentMapping.create({ data: { agentId: `a_${c.id}`, characterId: c.id, ownerAccountId: who.accountId, name: c.name, running: true } });
      const mine = await create(who.token, { name: uniqueName() });
      const agentToken = signToken({ sub: who.accountId, role: "agent", characterId: c.id }, TEST_SECRET);

      const listed = await call("GET", "/api/character", agentToken);
      assert.deepEqual(
        listed.body.characters.map((x: any) => [x.id, x.isAgent]),
        [[c.id, true]],
      );
      assert.equal((await call("POST", "/api/character", agentToken, { name: uniqueName() })).status, 403);
      assert.equal((await call("DELETE", `/api/character/${c.id}`, agentToken)).status, 403);

      const running = await call("DELETE", `/api/character/${c.id}`, who.token);
      assert.equal(running.status, 400);
      assert.equal(running.body.error.code, "AGENT_RUNNING");
      await prisma.agentMapping.update({ where: { agentId: `a_${c.id}` }, data: { running: false } });
      assert.equal((await call("DELETE", `/api/character/${c.id}`, who.token)).status, 200);
      assert.equal(await prisma.agentMapping.count({ where: { characterId: c.id } }), 0, "the agent's mapping went with it");
      assert.deepEqual(
        (await call("GET", "/api/character", who.token)).body.characters.map((x: any) => x.id),
        [mine.id],
      );
    });

    it("an agent's character does not take a player character's place", async () => {
      const who = await guestToken(server);
      const c = await create(who.token, { name: uniqueName() });
      await server.ctx.db.prisma.character.update({ where: { id: c.id }, data: { isAgent: true } });
      await create(who.token, { name: uniqueName() });
      await create(who.token, { name: uniqueName() });
      assert.equal((await call("POST", "/api/character", who.token, { name: uniqueName() })).body.error.code, "CHARACTER_LIMIT");
    });

    it("401 without a valid token", async () => {
      assert.equal((await call("GET", "/api/character")).status, 401);
      assert.equal((await call("GET", "/api/character", "not-a-token")).status, 401);
      assert.equal((await call("POST", "/api/character", undefined, { name: uniqueName() })).status, 401);
      assert.equal((await call("DELETE", "/api/character/c_whatever")).status, 401);
    });
  });

  describe("/api/template", () => {
    it("GET lists the world's templates; GET one shows its levels and items; 404 for an unknown one", async () => {
      const list = await call("GET", "/api/template");
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.templates.map((t: any) => t.id).sort(), [...server.ctx.gameData.templates.keys()].sort());
      const one = await call("GET", "/api/template/woodsman");
      assert.equal(one.status, 200);
      assert.deepEqual(one.body.template, {
        id: "woodsman",
        name: "Woodsman",
        description: server.ctx.gameData.templates.get("woodsman")!.description,
        skills: { woodcutting: 5, firemaking: 3 },
        items: [{ itemId: "logs", name: server.ctx.gameData.items.get("logs")!.name, quantity: 5 }],
      });
      const missing = await call("GET", "/api/template/no_such_template");
      assert.equal(missing.status, 404);
      assert.equal(missing.body.error.code, "TEMPLATE_NOT_FOUND");
    });

    it("POST /api/template/:id/character creates a character from it (201), within the same limit", async () => {
      const who = await guestToken(server);
      const made = await call("POST", "/api/template/prospector/character", who.token, { name: uniqueName() });
      assert.equal(made.status, 201);
      assert.equal(made.body.character.online, false);
      const skills = (await call("GET", `/api/characters/${made.body.character.id}/skills`, who.token)).body.skills;
      assert.equal(skills.mining.level, 5);
      assert.equal(skills.smithing.level, 3);
      const view = (await call("GET", `/api/v1/player?characterId=${made.body.character.id}`, who.token)).body.player;
      assert.ok(view.inventory.some((s: any) => s.itemId === "hammer"));

      const bad = await call("POST", "/api/template/prospector/character", who.token, { name: "no!" });
      assert.equal(bad.status, 400);
      assert.ok(bad.body.error.message.startsWith("name"));
      assert.equal((await call("POST", "/api/template/prospector/character", who.token, {})).status, 400);
      assert.equal((await call("POST", "/api/template/no_such_template/character", who.token, { name: uniqueName() })).status, 404);
      assert.equal((await call("POST", "/api/template/prospector/character", undefined, { name: uniqueName() })).status, 401);

      await call("POST", "/api/template/angler/character", who.token, { name: uniqueName() });
      const over = await call("POST", "/api/template/angler/character", who.token, { name: uniqueName() });
      assert.equal(over.status, 400);
      assert.equal(over.body.error.code, "CHARACTER_LIMIT");
    });
  });
});
