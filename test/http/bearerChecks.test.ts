import assert from "node:assert/strict";
import { signToken } from "../../src/auth/tokens.js";
import { rest } from "../helpers/rest.js";
import { startTestServer, TEST_SECRET, type TestServer } from "../helpers/server.js";

/** Who may call a Bearer route: an account that exists; `?characterId=` one of the caller's own. */
describe("Bearer routes: the token's account and characterId", function () {
  this.timeout(30_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  const guest = async () => (await rest(server, "POST", "/api/auth/guest")).body as { token: string; accountId: string };
  const character = async (token: string, name: string) => (await rest(server, "POST", "/api/character", token, { name })).body.character.id as string;

  it("a validly signed token of an account that does not exist is 401 ACCOUNT_NOT_FOUND on every Bearer route", async () => {
    const ghost = signToken({ sub: "acc_that_never_was" }, TEST_SECRET);
    for (const [method, path, body] of [
      ["GET", "/api/character"],
      ["POST", "/api/character", { name: "Ghost" }],
      ["GET", "/api/v1/player"],
      ["GET", "/api/player/friends"],
      ["GET", "/api/player/ignore"],
      ["GET", "/api/player/trades"],
      ["GET", "/api/player/lookup?name=Anyone"],
      ["GET", "/api/agent"],
      ["GET", "/api/characters/c_x/skills"],
      ["POST", "/api/template/any/character", { name: "Ghost" }],
      ["GET", "/api/auth/me"],
      ["POST", "/api/auth/refresh"],
      ["POST", "/api/voice/token", { characterId: "c_x" }],
    ] as Array<[string, string, unknown?]>) {
      const res = await rest(server, method, path, ghost, body);
      assert.equal(res.status, 401, `${method} ${path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, "ACCOUNT_NOT_FOUND", `${method} ${path}`);
      assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer /);
    }
  });

  it("a removed account's token stops working at once", async () => {
    const g = await guest();
    assert.equal((await rest(server, "GET", "/api/character", g.token)).status, 200);
    await server.ctx.db.prisma.user.delete({ where: { id: g.accountId } });
    const after = await rest(server, "GET", "/api/character", g.token);
    assert.equal(after.status, 401);
    assert.equal(after.body.error.code, "ACCOUNT_NOT_FOUND");
  });

  it("GET/POST/DELETE /api/player/ignore?characterId= someone else's character is 403, an unknown one 404, one's own 200", async () => {
    const a = await guest();
    const b = await guest();
    const aChar = await character(a.token, "Ignorer");
    const bChar = await character(b.token, "Ignored");
    for (const [method, path, body] of [
      ["GET", `/api/player/ignore?characterId=${bChar}`],
      ["POST", `/api/player/ignore?characterId=${bChar}`, { characterId: aChar }],
      ["DELETE", `/api/player/ignore/${aChar}?characterId=${bChar}`],
    ] as Array<[string, string, unknown?]>) {
      const res = await rest(server, method, path, a.token, body);
      assert.equal(res.status, 403, `${method} ${path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, "FORBIDDEN");
    }
    assert.equal((await rest(server, "GET", "/api/player/ignore?characterId=c_unknown", a.token)).status, 404);
    const own = await rest(server, "GET", `/api/player/ignore?characterId=${aChar}`, a.token);
    assert.equal(own.status, 200);
    assert.deepEqual(own.body.ignored, []);
    // Acting as one's own character still works end to end.
    assert.equal((await rest(server, "POST", `/api/player/ignore?characterId=${aChar}`, a.token, { characterId: bChar })).status, 201);
    assert.equal((await rest(server, "GET", "/api/player/ignore", a.token)).body.ignored.length, 1);
  });
});
