import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import jwt from "jsonwebtoken";
import { CLOCK_SKEW_SECONDS, TokenError, verifyToken } from "../../src/auth/tokens.js";
import { startTestServer, TEST_SECRET, type TestServer } from "../helpers/server.js";

/** Server tokens from the future: `iat` or `nbf` more than the 60 s clock skew ahead are refused. */

const now = () => Math.floor(Date.now() / 1000);
/** An HS256 token with exactly these claims (made by hand: jsonwebtoken's sign refuses some of them). */
const sign = (claims: Record<string, unknown>, secret = TEST_SECRET) => {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const body = `${part({ alg: "HS256", typ: "JWT" })}.${part({ sub: "acc_clock", role: "player", exp: now() + 3600, ...claims })}`;
  return `${body}.${createHmac("sha256", secret).update(body).digest("base64url")}`;
};
const codeOf = (token: string) => {
  try {
    verifyToken(token, TEST_SECRET);
    return "ok";
  } catch (err) {
    return err instanceof TokenError ? err.code : String(err);
  }
};

describe("token clock checks", function () {
  this.timeout(30_000);

  it("iat or nbf beyond the clock skew is TOKEN_INVALID; within it, or in the past, the token is good", () => {
    assert.equal(CLOCK_SKEW_SECONDS, 60);
    assert.equal(codeOf(sign({ iat: now() + 365 * 24 * 3600 })), "TOKEN_INVALID", "iat a year ahead");
    assert.equal(codeOf(sign({ iat: now() + 120 })), "TOKEN_INVALID", "iat two minutes ahead");
    assert.equal(codeOf(sign({ nbf: now() + 120 })), "TOKEN_INVALID", "nbf two minutes ahead");
    assert.equal(codeOf(sign({ iat: "yesterday" })), "TOKEN_INVALID", "iat not a number");
    assert.equal(codeOf(sign({ nbf: "soon" })), "TOKEN_INVALID", "nbf not a number");
    assert.equal(codeOf(sign({ iat: now() + 30 })), "ok", "iat within the skew");
    assert.equal(codeOf(sign({ nbf: now() + 30 })), "ok", "nbf within the skew");
    assert.equal(codeOf(sign({ iat: now() - 3600, nbf: now() - 3600 })), "ok");
    assert.equal(codeOf(sign({})), "ok", "no iat at all");
    // Expiry stays exact: the skew is not a grace period.
    assert.equal(codeOf(sign({ exp: now() - 5 })), "TOKEN_EXPIRED");
  });

  describe("over HTTP", () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
    });
    after(async () => {
      await server?.close();
    });

    it("a token of a real account issued a year ahead is refused with 401", async () => {
      const g = await (await fetch(`${server.url}/api/auth/guest`, { method: "POST" })).json();
      const future = jwt.sign({ role: "player", iat: now() + 365 * 24 * 3600, exp: now() + 2 * 365 * 24 * 3600 }, TEST_SECRET, {
        algorithm: "HS256",
        subject: g.accountId,
      });
      for (const path of ["/api/auth/me", "/api/character"]) {
        const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${future}` } });
        assert.equal(res.status, 401, path);
        assert.equal((await res.json()).error.code, "TOKEN_INVALID");
      }
      assert.equal((await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${g.token}` } })).status, 200);
    });
  });
});
