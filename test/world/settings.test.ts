import assert from "node:assert/strict";
import { WORLD_FEATURES } from "../../src/features/index.js";
import { tickWorld } from "../../src/game/world/tick.js";
import { createWorld } from "../../rooms/worldSetup.js";
import { DATABASE_KINDS, openTestDb, type TestDb } from "../helpers/database.js";
import { addStarter } from "../helpers/handPlaced.js";
import { defaultGameData, startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken, joinWorld, worldSuite } from "../helpers/worldClient.js";
import { besideOf, leaveAndSettle } from "../helpers/worldRoom.js";
import type { WorldRoom } from "../../rooms/WorldRoom.js";

describe("player settings: auto-retaliate, tick by tick", () => {
  it("a player hit while idle fights back, unless auto-retaliate is off", async () => {
    for (const on of [true, false]) {
      const world = createWorld(await defaultGameData(), { rng: () => 0.3, features: WORLD_FEATURES.list });
      const troll = [...world.npcs.values()].find((n) => n.defId === "bog_troll")!;
      const p = addStarter(world, on ? "Fighter" : "Pacifist", besideOf({ world } as unknown as WorldRoom, troll.position));
      p.vars.autoRetaliate = on;
      for (let i = 0; i < 12 && p.lastHitTick < 0; i++) tickWorld(world);
      assert.ok(p.lastHitTick >= 0, "the troll attacked");
      assert.deepEqual(p.action, on ? { type: "attack", targetId: troll.id } : null);
    }
  });
});

describe("player settings over the protocol", function () {
  this.timeout(30_000);
  const suite = worldSuite();

  it("player:setting turns auto-retaliate off and on; player:sync shows it in vars", async () => {
    const a = await suite.join();
    assert.equal(a.sync().vars.autoRetaliate, true, "on for a new character");
    let since = a.mark();
    a.send("player:setting", { name: "autoRetaliate", value: false });
    await a.next("player:sync", (s) => s.vars.autoRetaliate === false, { since });
    since = a.mark();
    a.send("player:setting", { name: "autoRetaliate", value: true });
    await a.next("player:sync", (s) => s.vars.autoRetaliate === true, { since });
  });

  it("refuses unknown names, values of the wrong kind, huge numbers, missing fields and variables no player may set; nothing changes", async () => {
    const a = await suite.join();
    const cases: Array<[unknown, string, RegExp?]> = [
      [{ name: "godMode", value: true }, "UNKNOWN_SETTING", /settings: autoRetaliate/],
      // The cooldown's end is the player's own variable, but not a setting: no one resets it.
      [{ name: "homeTeleportReadyAt", value: 0 }, "UNKNOWN_SETTING"],
      [{ name: "regenCount", value: 99 }, "UNKNOWN_SETTING"],
      [{ name: "autoRetaliate", value: 1 }, "INVALID_SETTING", /true or false/],
      [{ name: "autoRetaliate", value: "off" }, "INVALID_PAYLOAD"],
      [{ name: "autoRetaliate", value: 1e300 }, "INVALID_PAYLOAD"],
      [{ name: "autoRetaliate", value: 0.5 }, "INVALID_PAYLOAD"],
      [{ name: "autoRetaliate" }, "INVALID_PAYLOAD"],
      [{ value: false }, "INVALID_PAYLOAD"],
      [{ name: "autoRetaliate", value: false, extra: 1 }, "INVALID_PAYLOAD"],
      [null, "INVALID_PAYLOAD"],
      [{ name: "__proto__", value: true }, "UNKNOWN_SETTING"],
    ];
    for (const [payload, code, message] of cases) {
      const since = a.mark();
      a.send("player:setting", payload);
      const error = await a.next("error", () => true, { since });
      assert.equal(error.code, code, JSON.stringify(payload));
      if (message) assert.match(error.message, message);
    }
    const vars = a.sync().vars;
    assert.deepEqual([vars.autoRetaliate, vars.homeTeleportReadyAt], [true, 0], "unchanged");
  });
});

for (const kind of DATABASE_KINDS) {
  describe(`player settings kept with the character on ${kind}`, function () {
    this.timeout(60_000);
    let t: TestDb;
    let server: TestServer | undefined;
    beforeEach(async () => {
      t = await openTestDb(kind);
    });
    afterEach(async () => {
      await server?.close();
      server = undefined;
      await t.cleanup();
    });

    it("auto-retaliate off survives a logout and a restart; the row keeps a variable no feature claims", async () => {
      server = await startTestServer({ db: t.db });
      const who = await guestToken(server);
      const a = await joinWorld(server, {}, who);
      const since = a.mark();
      a.send("player:setting", { name: "autoRetaliate", value: false });
      await a.next("player:sync", (s) => s.vars.autoRetaliate === false, { since });
      await leaveAndSettle(a);
      const row = await t.db.prisma.character.findUniqueOrThrow({ where: { id: a.id } });
      assert.equal((row.vars as Record<string, unknown>).autoRetaliate, false);
      // A variable of a feature this server does not run: kept, not lost, by the next save.
      await t.db.prisma.character.update({ where: { id: a.id }, data: { vars: { ...(row.vars as object), retiredFeatureCount: 7 } } });
      await server.close();
      server = await startTestServer({ db: t.db });
      const again = await joinWorld(server, {}, who);
      assert.equal(again.sync().vars.autoRetaliate, false);
      assert.equal("retiredFeatureCount" in again.sync().vars, false, "not shown: no feature claims it");
      await leaveAndSettle(again);
      const after = await t.db.prisma.character.findUniqueOrThrow({ where: { id: a.id } });
      const saved = after.vars as Record<string, unknown>;
      assert.deepEqual([saved.autoRetaliate, saved.homeTeleportReadyAt, saved.retiredFeatureCount], [false, 0, 7], "the saved variables and the carried one");
      for (const unsaved of ["regenCount", "homeTeleportAtTick", "pvpTick", "agilityLap"]) assert.equal(unsaved in saved, false, `${unsaved} starts again at each login`);
    });
  });
}
