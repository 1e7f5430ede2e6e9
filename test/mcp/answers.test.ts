import assert from "node:assert/strict";
import { xpForLevel } from "../../src/game/skills.js";
import { MAX_TICKS } from "../../src/mcp/act.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken, joinWorld, type WorldPlayer } from "../helpers/worldClient.js";
import { besideOf, place, setRng, theWorld, ticks } from "../helpers/worldRoom.js";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { mcpConnect, type McpTestClient } from "./helpers.js";

type Told = { kind: string; [k: string]: any };

/**
 * Every tool answer of a session carries the events the player was told of since the previous
 * answer, each in exactly one answer (whichever tool it is, refusals included), a fight's swings
 * folded into its totals, and the player's vitals; a fight runs to its end by default, and no
 * call waits past the bound under a client's 60 s timeout.
 */
describe("/mcp: answers carry the events since the last one, once, and the vitals", function () {
  this.timeout(120_000);
  let server: TestServer;
  let c: McpTestClient;
  let room: WorldRoom;
  let me: string;
  let other: WorldPlayer;
  const events = (body: { events?: Told[] }) => body.events ?? [];

  before(async () => {
    server = await startTestServer();
    c = await mcpConnect(server, (await guestToken(server)).token);
    room = await theWorld();
    me = (await c.call("observe")).body.you.id;
    other = await joinWorld(server);
  });
  after(async () => {
    await other?.leave().catch(() => {});
    await c?.close();
    await server?.close();
  });

  it("an event between two calls is in the next answer, whichever tool, and in no answer after it", async () => {
    const said = await c.call("chat", { message: "told once", channel: "world" });
    assert.equal(events(said.body).filter((e) => e.kind === "chat:message" && e.message === "told once").length, 1, said.text);
    assert.ok(!events((await c.call("observe")).body).some((e) => e.message === "told once"), "observe does not replay what an answer returned");

    // Another player speaks while no call of the session runs.
    other.send("player:chat", { message: "heard between calls", channel: "world" });
    await ticks(room, 3);
    const status = await c.call("agent_status");
    assert.equal(events(status.body).filter((e) => e.kind === "chat:message" && e.message === "heard between calls").length, 1, status.text);
    const again = await c.call("observe");
    assert.ok(!events(again.body).some((e) => e.message === "heard between calls"), again.text);
    // A refusal carries them too.
    other.send("player:chat", { message: "heard before a refusal", channel: "world" });
    await ticks(room, 3);
    const refused = await c.call("move_to", { x: 100_000, z: 0 });
    assert.equal(refused.isError, true);
    assert.ok(
      events(refused.body).some((e) => e.message === "heard before a refusal"),
      refused.text,
    );
    assert.equal(typeof refused.body.vitals.health, "number");
  });

  it("every answer has the vitals: health, prayer, position, free slots, who is attacking", async () => {
    for (const [name, args] of [
      ["observe", {}],
      ["agent_status", {}],
      ["quest_journal", {}],
      ["wait", { ticks: 1 }],
    ] as const) {
      const r = await c.call(name, args);
      assert.equal(r.isError, false, r.text);
      const v = r.body.vitals;
      assert.ok(v, `${name}: ${r.text}`);
      assert.deepEqual(Object.keys(v).sort(), ["freeSlots", "health", "maxHealth", "position", "prayer", "runEnergy", "underAttackBy"]);
      assert.equal(typeof v.health, "number");
      assert.ok(v.health <= v.maxHealth);
      assert.deepEqual(Object.keys(v.position).sort(), ["x", "z"]);
      assert.ok(Array.isArray(v.underAttackBy));
    }
  });

  it("a fight runs to its end by default: its swings as one entry of totals, each skill's xp as one line", async () => {
    const goblin = [...room.world.npcs.values()].find((n) => n.defId === "goblin" && n.deadUntilTick == null)!;
    assert.ok(goblin, "the default world has a goblin");
    const p = room.world.players.get(me)!;
    place(room, me, besideOf(room, goblin.position));
    // Strong enough to win: every blow lands and the goblin's hit back is small.
    for (const skill of ["attack", "strength", "defense"] as const) {
      p.xp[skill] = xpForLevel(60);
      p.levels[skill] = 60;
    }
    setRng(room, 0.5);
    await c.call("observe"); // what came before the fight is told here
    const fought = await c.call("interact", { action: "attack", targetId: goblin.id });
    assert.equal(fought.isError, false, fought.text);
    assert.equal(fought.body.done, true, fought.text);
    const told = events(fought.body);
    assert.ok(!told.some((e) => e.kind === "combat:hit"), "no swing one by one");
    const fights = told.filter((e) => e.kind === "combat" && e.with === goblin.id);
    assert.equal(fights.length, 1, fought.text);
    const f = fights[0]!;
    assert.ok(f.swings >= 1 && f.hits >= 1 && f.hits <= f.swings, fought.text);
    assert.ok(f.damageDealt >= 1);
    assert.equal(f.foeHealth, 0, "the last blow left the goblin at 0");
    assert.ok(
      told.some((e) => e.kind === "npc:killed"),
      fought.text,
    );
    // One line per skill, however many blows gave xp.
    const xpLines = told.filter((e) => e.kind === "skill:xp");
    assert.equal(new Set(xpLines.map((e) => e.skill)).size, xpLines.length, fought.text);
  });

  it("a kind id stands for the nearest of its kind in view, and the answer names the instance chosen", async () => {
    const warden = [...room.world.npcs.values()].find((n) => n.defId === "warden_holt")!;
    place(room, me, besideOf(room, warden.position));
    await ticks(room, 2);
    const talked = await c.call("interact", { action: "talk", targetId: "warden_holt" });
    assert.equal(talked.isError, false, talked.text);
    assert.deepEqual(talked.body.resolved, { from: "warden_holt", targetId: warden.id });
    assert.ok(talked.body.dialogue, talked.text);
    await c.call("close", { what: "dialogue" });
    const unknown = await c.call("interact", { action: "talk", targetId: "nobody_of_that_kind" });
    assert.equal(unknown.isError, true);
    assert.match(unknown.text, /^UNKNOWN_TARGET/);
  });

  it("a dialogue answer that hands an item over counts it in gained, and the journal has the quest it started", async () => {
    const warden = [...room.world.npcs.values()].find((n) => n.defId === "warden_holt")!;
    place(room, me, besideOf(room, warden.position));
    await ticks(room, 2);
    let r = await c.call("interact", { action: "talk", targetId: warden.id });
    let started: Told | undefined;
    for (let i = 0; i < 6 && !started && r.body.dialogue?.responses?.length; i++) {
      r = await c.call("dialogue_respond", { index: 0 });
      assert.equal(r.isError, false, r.text);
      started = events(r.body).find((e) => e.kind === "quest:started");
    }
    assert.ok(started, "the warden's letter started");
    // What the quest's start gave is in the same answer, and the journal already says so.
    assert.equal(r.body.gained.sealed_letter, 1, JSON.stringify(r.body.gained));
    const journal = await c.call("quest_journal");
    const entry = journal.body.quests.find((q: any) => q.questId === started!.questId);
    assert.equal(entry.status, "in_progress");
    assert.equal(entry.target.type, "talk", "where its stage in force is done");
    assert.equal(typeof entry.target.id, "string");
    assert.equal(journal.body.questPoints, 0);
    const notStarted = journal.body.quests.find((q: any) => q.status === "not_started" && q.startNpc);
    if (notStarted) assert.deepEqual(notStarted.target, { type: "talk", id: notStarted.startNpc });
    await c.call("close", { what: "dialogue" });
  });

  it("an answer that stops before its outcome says how to go on; a wait past the bound is refused", async () => {
    const tree = [...room.world.resources.values()].find((r) => r.skill === "woodcutting" && !r.depleted)!;
    place(room, me, besideOf(room, tree.tile));
    setRng(room, 0.99); // every chop fails: the outcome does not come within one tick
    const short = await c.call("interact", { action: "gather", targetId: tree.id, maxTicks: 1 });
    assert.equal(short.isError, false, short.text);
    assert.equal(short.body.done, false, short.text);
    assert.match(short.body.continues, /wait/);
    await c.call("interact", { action: "stop" });
    const tooLong = await c.call("wait", { for: ["npc:killed"], maxTicks: MAX_TICKS + 1 });
    assert.equal(tooLong.isError, true);
    assert.match(tooLong.text, /^INVALID_PAYLOAD/);
    assert.ok(MAX_TICKS * 600 < 60_000, "the longest call answers before a client's 60 s timeout");
  });
});
