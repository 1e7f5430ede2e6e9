import assert from "node:assert/strict";
import {
  checkBroadcast,
  checkReason,
  describeEnd,
  mayDo,
  MAX_SANCTION_MS,
  parseDuration,
  parseSanctionCommand,
  requireOutranks,
  requireRole,
  restartSteps,
  roleOf,
  splitNamed,
} from "../../src/game/staff.js";

const code = (c: string) => (err: unknown) => (err as { code?: string }).code === c;

describe("staff rules (src/game/staff.ts)", () => {
  it("an account's role is the highest it holds; unknown entries count for nothing", () => {
    assert.equal(roleOf([]), "player");
    assert.equal(roleOf(["player"]), "player");
    assert.equal(roleOf(["player", "moderator"]), "moderator");
    assert.equal(roleOf(["admin", "moderator"]), "admin");
    assert.equal(roleOf(["king", "ADMIN"]), "player");
  });

  it("moderators mute, ban, kick and handle reports; only admins give, teleport, broadcast, restart, read the audit and change roles", () => {
    for (const act of ["mute", "unmute", "ban", "unban", "kick", "reports.read", "reports.handle", "players.read", "sanctions.read"] as const) {
      assert.ok(mayDo("moderator", act), act);
      assert.ok(mayDo("admin", act), act);
      assert.ok(!mayDo("player", act), act);
    }
    for (const act of ["give", "teleport", "broadcast", "restart", "save-all", "audit.read", "role.grant", "role.revoke", "monitor.login"] as const) {
      assert.ok(mayDo("admin", act), act);
      assert.ok(!mayDo("moderator", act), act);
      assert.ok(!mayDo("player", act), act);
    }
    assert.throws(() => requireRole("moderator", "give"), code("FORBIDDEN"));
    assert.doesNotThrow(() => requireRole("moderator", "ban"));
  });

  it("staff sanction only lower roles", () => {
    assert.doesNotThrow(() => requireOutranks("moderator", "player"));
    assert.doesNotThrow(() => requireOutranks("admin", "moderator"));
    assert.throws(() => requireOutranks("moderator", "moderator"), code("TARGET_IS_STAFF"));
    assert.throws(() => requireOutranks("moderator", "admin"), code("TARGET_IS_STAFF"));
    assert.throws(() => requireOutranks("admin", "admin"), code("TARGET_IS_STAFF"));
  });

  it("durations: m, h, d, w or permanent; anything else, zero, negative or beyond 10 years is INVALID_DURATION", () => {
    assert.equal(parseDuration("30m"), 30 * 60_000);
    assert.equal(parseDuration("12h"), 12 * 3600_000);
    assert.equal(parseDuration("7D"), 7 * 24 * 3600_000);
    assert.equal(parseDuration("2w"), 14 * 24 * 3600_000);
    assert.equal(parseDuration("permanent"), null);
    for (const bad of ["", "0m", "-5m", "5", "5s", "1.5h", "abc", "999999w", "1e3m", `${MAX_SANCTION_MS / 60_000 + 1}m`]) {
      assert.throws(() => parseDuration(bad), code("INVALID_DURATION"), bad);
    }
  });

  it("reasons are required where asked, trimmed, at most 500 characters", () => {
    assert.equal(checkReason("  spam "), "spam");
    assert.throws(() => checkReason("   "), code("REASON_REQUIRED"));
    assert.equal(checkReason("", false), undefined);
    assert.throws(() => checkReason("x".repeat(501)), code("REASON_TOO_LONG"));
  });

  it("a command names a player bare or in double quotes, then its duration and reason", () => {
    assert.deepEqual(splitNamed("Bob rest of it"), { name: "Bob", rest: "rest of it" });
    assert.deepEqual(splitNamed('"Big Bob" 1h spam'), { name: "Big Bob", rest: "1h spam" });
    assert.throws(() => splitNamed("  "), code("MISSING_NAME"));
    assert.throws(() => splitNamed('"Big Bob 1h'), code("MISSING_NAME"));
    assert.deepEqual(parseSanctionCommand("mute", '"Big Bob" 1h flooding the chat'), { name: "Big Bob", durationMs: 3600_000, reason: "flooding the chat" });
    assert.deepEqual(parseSanctionCommand("ban", "Bob permanent botting"), { name: "Bob", durationMs: null, reason: "botting" });
    assert.throws(() => parseSanctionCommand("ban", "Bob"), code("INVALID_DURATION"));
    assert.throws(() => parseSanctionCommand("ban", "Bob 1h"), code("REASON_REQUIRED"));
    assert.throws(() => parseSanctionCommand("mute", "Bob soon spam"), code("INVALID_DURATION"));
  });

  it("ends read in UTC or as permanent; broadcasts are 1-300 characters; a restart's countdown steps", () => {
    assert.equal(describeEnd(null), "permanently");
    assert.equal(describeEnd("2026-12-01T10:05:30.000Z"), "until 2026-12-01 10:05 UTC");
    assert.equal(checkBroadcast("  hi "), "hi");
    assert.throws(() => checkBroadcast(" "), code("EMPTY_MESSAGE"));
    assert.throws(() => checkBroadcast("x".repeat(301)), code("MESSAGE_TOO_LONG"));
    assert.deepEqual(restartSteps(300), [300, 120, 60, 30, 10]);
    assert.deepEqual(restartSteps(10), [10]);
    assert.deepEqual(restartSteps(45), [45, 30, 10]);
  });
});
