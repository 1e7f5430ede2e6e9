import assert from "node:assert/strict";
import { frameworkLogger } from "../src/logger.js";
import { captureLogs, LEVEL } from "./helpers/logCapture.js";

describe("Colyseus's log lines through pino", function () {
  it("what a client can cause at will is one info line with no stack; other errors are warnings with the error", function () {
    const { logger, lines, text } = captureLogs("debug");
    const colyseus = frameworkLogger(logger);
    colyseus.error("ws error:", new RangeError("Max payload size exceeded"));
    colyseus.error(new Error("Unexpected end of MessagePack data"));
    colyseus.info("❌ reconnection token invalid or expired. Did you miss .allowReconnection()?");
    colyseus.error("room failed", new Error("disk on fire"), { roomId: "r1" });
    assert.deepEqual(
      lines.map((l) => l.level),
      [LEVEL.info, LEVEL.info, LEVEL.info, LEVEL.warn],
    );
    assert.equal(lines[0]!.msg, "ws error: Max payload size exceeded");
    assert.ok(!text().split("\n").slice(0, 3).join("").includes("    at "), "no stack for client-caused lines");
    assert.equal((lines[3]!.err as { message: string }).message, "disk on fire");
    assert.ok(lines.every((l) => l.from === "colyseus"));
  });
});
