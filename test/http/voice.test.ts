import assert from "node:assert/strict";
import { jwtVerify } from "jose";
import { rest } from "../helpers/rest.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken } from "../helpers/worldClient.js";

const KEY = "voice-test-key";
const SECRET = "voice-test-secret-".padEnd(40, "s");
const URL = "wss://voice.example.test";

/** POST /api/voice/token: a LiveKit access token for the player's world voice room; the secrets stay on the server. */
describe("voice tokens", function () {
  this.timeout(30_000);
  let server: TestServer;
  let bare: TestServer;

  before(async () => {
    server = await startTestServer({ env: { VOICE_API_KEY: KEY, VOICE_API_SECRET: SECRET, VOICE_URL: URL } });
    bare = await startTestServer();
  });
  after(async () => {
    await server?.close();
    await bare?.close();
  });

  async function character(s: TestServer) {
    const who = await guestToken(s);
    const made = await rest(s, "POST", "/api/character", who.token, { name: `Voice${Math.floor(Math.random() * 1e6)}` });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    return { token: who.token, id: made.body.character.id as string, name: made.body.character.name as string };
  }

  it("gives the owner a token for its world's room, signed with the secret, as the character", async () => {
    const me = await character(server);
    const r = await rest(server, "POST", "/api/voice/token", me.token, { characterId: me.id });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual([r.body.url, r.body.room, r.body.identity, r.body.expiresIn], [URL, "world-1", me.id, 600]);
    const { payload } = await jwtVerify(r.body.token, new TextEncoder().encode(SECRET));
    assert.equal(payload.iss, KEY);
    assert.equal(payload.sub, me.id);
    assert.equal(payload.name, me.name);
    assert.deepEqual(payload.video, { room: "world-1", roomJoin: true, canPublish: true, canSubscribe: true, canPublishData: false });
    assert.ok(payload.exp! - payload.nbf! <= 600);
    assert.ok(!JSON.stringify(r.body).includes(SECRET), "the secret is never sent");
  });

  it("refuses without a token, for someone else's character, an unknown one, or a bad body", async () => {
    const me = await character(server);
    const other = await character(server);
    const cases: Array<[string | undefined, unknown, number, string]> = [
      [undefined, { characterId: me.id }, 401, "UNAUTHORIZED"],
      [me.token, { characterId: other.id }, 403, "FORBIDDEN"],
      [me.token, { characterId: "c_nobody" }, 404, "CHARACTER_NOT_FOUND"],
      [me.token, {}, 400, "INVALID_PAYLOAD"],
      [me.token, { characterId: 42 }, 400, "INVALID_PAYLOAD"],
      [me.token, { characterId: me.id, room: "admins" }, 400, "INVALID_PAYLOAD"],
    ];
    for (const [token, body, status, code] of cases) {
      const r = await rest(server, "POST", "/api/voice/token", token, body);
      assert.deepEqual([r.status, r.body.error?.code], [status, code], JSON.stringify(body));
      assert.equal(r.body.token, undefined);
    }
  });

  it("without the voice settings: 503 VOICE_NOT_CONFIGURED", async () => {
    const me = await character(bare);
    const r = await rest(bare, "POST", "/api/voice/token", me.token, { characterId: me.id });
    assert.deepEqual([r.status, r.body.error?.code], [503, "VOICE_NOT_CONFIGURED"]);
  });
});
