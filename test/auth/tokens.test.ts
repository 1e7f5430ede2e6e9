import assert from "node:assert/strict";
import jwt from "jsonwebtoken";
import { bearerToken, signToken, TokenError, verifyToken } from "../../src/auth/tokens.js";

const SECRET = "s".repeat(40);

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof TokenError, `expected a TokenError, got ${err}`);
    return err.code;
  }
  assert.fail("expected the token to be refused");
}

describe("server tokens", () => {
  it("round-trips account id, role and expiry", () => {
    const token = signToken({ sub: "acc_1", role: "admin" }, SECRET, 60);
    const claims = verifyToken(token, SECRET);
    assert.equal(claims.sub, "acc_1");
    assert.equal(claims.role, "admin");
    assert.ok(claims.exp - Math.floor(Date.now() / 1000) <= 60 && claims.exp - Math.floor(Date.now() / 1000) >= 58);
    assert.equal(jwt.decode(token, { complete: true })?.header.alg, "HS256");
  });

  it("refuses a missing token", () => {
    assert.equal(
      code(() => verifyToken(undefined, SECRET)),
      "TOKEN_MISSING",
    );
    assert.equal(
      code(() => verifyToken("", SECRET)),
      "TOKEN_MISSING",
    );
  });

  it("refuses an expired token", () => {
    const token = jwt.sign({ role: "player", exp: Math.floor(Date.now() / 1000) - 10 }, SECRET, { algorithm: "HS256", subject: "a" });
    assert.equal(
      code(() => verifyToken(token, SECRET)),
      "TOKEN_EXPIRED",
    );
  });

  it("refuses a token signed with another secret", () => {
    const token = signToken({ sub: "a" }, "o".repeat(40));
    assert.equal(
      code(() => verifyToken(token, SECRET)),
      "TOKEN_INVALID",
    );
  });

  it("refuses alg none", () => {
    const header = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    const payload = Buffer.from(JSON.stringify({ sub: "a", role: "admin", exp: Math.floor(Date.now() / 1000) + 600 })).toString("base64url");
    assert.equal(
      code(() => verifyToken(`${header}.${payload}.`, SECRET)),
      "TOKEN_INVALID",
    );
  });

  it("refuses another HMAC algorithm with the right secret", () => {
    const token = jwt.sign({ role: "player" }, SECRET, { algorithm: "HS512", subject: "a", expiresIn: 60 });
    assert.equal(
      code(() => verifyToken(token, SECRET)),
      "TOKEN_INVALID",
    );
  });

  it("refuses tokens without a subject or with an unknown role, and garbage", () => {
    assert.equal(
      code(() => verifyToken(jwt.sign({ role: "player" }, SECRET, { expiresIn: 60 }), SECRET)),
      "TOKEN_INVALID",
    );
    assert.equal(
      code(() => verifyToken(jwt.sign({ role: "god" }, SECRET, { subject: "a", expiresIn: 60 }), SECRET)),
      "TOKEN_INVALID",
    );
    assert.equal(
      code(() => verifyToken("not.a.token", SECRET)),
      "TOKEN_INVALID",
    );
  });

  it("reads Bearer headers and nothing else", () => {
    assert.equal(bearerToken("Bearer abc.def.ghi"), "abc.def.ghi");
    assert.equal(bearerToken("bearer abc"), "abc");
    assert.equal(bearerToken("Basic abc"), undefined);
    assert.equal(bearerToken("Bearer"), undefined);
    assert.equal(bearerToken(undefined), undefined);
  });
});
