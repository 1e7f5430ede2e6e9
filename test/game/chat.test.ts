import assert from "node:assert/strict";
import {
  ADMIN_LOCK_MS,
  ADMIN_MAX_ATTEMPTS,
  AdminGate,
  AdminLockouts,
  CHAT_RANGE_TILES,
  MAX_CHAT_LENGTH,
  parseChat,
  sanitizeChat,
  withinChatRange,
} from "../../src/game/chat.js";
import { GameError } from "../../src/game/types.js";
import { code } from "./fixtures.js";

describe("game/chat", function () {
  it("constants", function () {
    assert.equal(MAX_CHAT_LENGTH, 200);
    assert.equal(CHAT_RANGE_TILES, 15);
    assert.equal(ADMIN_MAX_ATTEMPTS, 3);
  });

  it("plain text is said, trimmed", function () {
    assert.deepEqual(parseChat("  hello there  "), { kind: "say", message: "hello there" });
    assert.deepEqual(parseChat("a / b"), { kind: "say", message: "a / b" });
  });

  it("control characters collapse to one space", function () {
    assert.deepEqual(parseChat("hi\n\n\r\tyou\u0000\u0007there\u2028!"), { kind: "say", message: "hi you there !" });
    assert.equal(sanitizeChat("\u0001\u0002 x \u001b[31m"), "x [31m");
    assert.deepEqual(parseChat("emoji 🙂 and ümlaut"), { kind: "say", message: "emoji 🙂 and ümlaut" });
  });

  it("empty messages are refused", function () {
    for (const t of ["", "   ", "\n\t\u0000", "\u2028"]) assert.throws(() => parseChat(t), code("EMPTY_MESSAGE"), JSON.stringify(t));
    assert.throws(() => parseChat(undefined as unknown as string), code("INVALID_MESSAGE"));
    assert.throws(() => parseChat(42 as unknown as string), code("INVALID_MESSAGE"));
  });

  it("messages longer than 200 characters are refused; exactly 200 is fine", function () {
    assert.equal((parseChat("a".repeat(200)) as { message: string }).message.length, 200);
    assert.throws(() => parseChat("a".repeat(201)), code("MESSAGE_TOO_LONG"));
    assert.throws(() => parseChat("a".repeat(1_000_000)), code("MESSAGE_TOO_LONG"));
    assert.equal(parseChat(`  ${"b".repeat(200)}  `).kind, "say", "length is measured after trimming");
    assert.equal(parseChat("🙂".repeat(200)).kind, "say", "length counts characters, not UTF-16 units");
    assert.throws(() => parseChat("🙂".repeat(201)), code("MESSAGE_TOO_LONG"));
  });

  it("commands start with / and split into a lower-case name and arguments", function () {
    assert.deepEqual(parseChat("/admin CODE123"), { kind: "command", command: "admin", args: ["CODE123"], rest: "CODE123" });
    assert.deepEqual(parseChat("/tp 100 100"), { kind: "command", command: "tp", args: ["100", "100"], rest: "100 100" });
    assert.deepEqual(parseChat("/give bronze_sword 1"), { kind: "command", command: "give", args: ["bronze_sword", "1"], rest: "bronze_sword 1" });
    assert.deepEqual(parseChat("/KICK Name"), { kind: "command", command: "kick", args: ["Name"], rest: "Name" });
    assert.deepEqual(parseChat("/world hello   out there"), { kind: "command", command: "world", args: ["hello", "out", "there"], rest: "hello   out there" });
    assert.deepEqual(parseChat("/players"), { kind: "command", command: "players", args: [], rest: "" });
    assert.deepEqual(parseChat("  /tp\t5  6 "), { kind: "command", command: "tp", args: ["5", "6"], rest: "5  6" });
  });

  it("a / without a usable command name is refused", function () {
    for (const t of ["/", "/ tp", "//tp", "/tp!", `/${"x".repeat(33)}`]) assert.throws(() => parseChat(t), code("INVALID_COMMAND"), t);
  });

  it("withinChatRange is Chebyshev within 15 tiles", function () {
    assert.equal(withinChatRange({ x: 0, z: 0 }, { x: 15, z: -15 }), true);
    assert.equal(withinChatRange({ x: 0, z: 0 }, { x: 16, z: 0 }), false);
    assert.equal(withinChatRange({ x: 0, z: 0 }, { x: 16, z: 0 }, 20), true);
  });

  describe("AdminGate", function () {
    it("grants the right code", function () {
      const gate = new AdminGate();
      assert.equal(gate.isAdmin, false);
      assert.equal(gate.tryCode("s3cret", "s3cret"), "granted");
      assert.equal(gate.isAdmin, true);
      assert.equal(gate.attemptsLeft, 3);
    });

    it("is unavailable without a configured code, and counts nothing then", function () {
      const gate = new AdminGate();
      assert.equal(gate.tryCode("anything", undefined), "unavailable");
      assert.equal(gate.tryCode("anything", null), "unavailable");
      assert.equal(gate.tryCode("", ""), "unavailable");
      assert.equal(gate.attemptsLeft, 3);
      assert.equal(gate.isAdmin, false);
    });

    it("locks after three wrong codes, even against the right one", function () {
      const gate = new AdminGate();
      assert.equal(gate.tryCode("nope", "s3cret"), "wrong");
      assert.equal(gate.attemptsLeft, 2);
      assert.equal(gate.tryCode("s3cre", "s3cret"), "wrong", "a prefix is wrong");
      assert.equal(gate.tryCode("s3cret!", "s3cret"), "locked", "the third wrong code locks");
      assert.equal(gate.isLocked, true);
      assert.equal(gate.tryCode("s3cret", "s3cret"), "locked");
      assert.equal(gate.isAdmin, false);
      assert.equal(new AdminGate().tryCode("s3cret", "s3cret"), "granted", "each session has its own gate");
    });

    it("non-string and empty codes count as wrong", function () {
      const gate = new AdminGate();
      assert.equal(gate.tryCode(undefined, "s3cret"), "wrong");
      assert.equal(gate.tryCode("", "s3cret"), "wrong");
      assert.equal(gate.tryCode(12345, "12345"), "locked");
    });

    it("gates of one account share its count; the lock runs out after ADMIN_LOCK_MS; a right code clears the count", function () {
      let now = 1_000;
      const lockouts = new AdminLockouts(ADMIN_MAX_ATTEMPTS, ADMIN_LOCK_MS, () => now);
      const gate = (accountId: string) => new AdminGate(ADMIN_MAX_ATTEMPTS, { lockouts, accountId });
      assert.equal(gate("a").tryCode("x", "s3cret"), "wrong");
      assert.equal(gate("a").tryCode("x", "s3cret"), "wrong");
      assert.equal(gate("a").tryCode("x", "s3cret"), "locked", "three sessions, one count");
      assert.equal(gate("a").tryCode("s3cret", "s3cret"), "locked");
      assert.equal(gate("b").tryCode("s3cret", "s3cret"), "granted", "another account");
      now += ADMIN_LOCK_MS - 1;
      assert.equal(gate("a").tryCode("s3cret", "s3cret"), "locked");
      now += 1;
      assert.equal(gate("a").attemptsLeft, ADMIN_MAX_ATTEMPTS, "the lock ran out");
      assert.equal(gate("a").tryCode("x", "s3cret"), "wrong");
      assert.equal(gate("a").tryCode("s3cret", "s3cret"), "granted");
      assert.equal(gate("a").attemptsLeft, ADMIN_MAX_ATTEMPTS, "a right code clears the count");
    });

    it("the number of attempts can be set", function () {
      const gate = new AdminGate(1);
      assert.equal(gate.tryCode("x", "y"), "locked");
    });
  });
});
