import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken } from "../helpers/worldClient.js";
import { place, setRng, theWorld, ticks } from "../helpers/worldRoom.js";
import { MCP_TOOLS } from "../../src/features/index.js";
import { checkFeatureTools } from "../../src/mcp/featureTools.js";
import { TOOL_META } from "../../src/mcp/toolMeta.js";
import { xpForLevel } from "../../src/game/skills.js";
import { refreshLevels } from "../../src/game/world/xp.js";
import { mcpConnect, type McpTestClient } from "./helpers.js";

/** The tools: every one refuses bad input as a tool error with the documented code; progress, goals, waits, resources. */
describe("/mcp: tools", function () {
  this.timeout(60_000);
  let server: TestServer;
  let c: McpTestClient;
  before(async () => {
    server = await startTestServer();
    c = await mcpConnect(server, (await guestToken(server)).token);
  });
  after(async () => {
    await c?.close();
    await server?.close();
  });

  /** Bad arguments for every tool, each refused INVALID_PAYLOAD naming the field. */
  const BAD: Array<[string, Record<string, unknown>, RegExp]> = [
    ["observe", { look: "around" }, /observe/],
    ["move_to", { x: "far", z: 0 }, /x/],
    ["interact", { action: "dance" }, /action/],
    ["interact", { action: "gather" }, /targetId: required/],
    ["dialogue_respond", { index: 99 }, /index/],
    ["close", { what: "window" }, /what/],
    ["store_buy", { itemId: "", quantity: 1 }, /itemId/],
    ["store_sell", { slot: 40, quantity: 1 }, /slot/],
    ["bank", { op: "deposit", quantity: 1 }, /slot: required/],
    ["bank", { op: "withdraw", quantity: 1 }, /itemId: required/],
    ["bank", { op: "tab", itemId: "coins" }, /tab: required/],
    ["bank", { op: "tab", itemId: "coins", tab: 10 }, /tab/],
    ["make", { kind: "baking", recipeId: "bread" }, /kind/],
    ["equip", { slot: -1 }, /slot/],
    ["unequip", { slot: "hat" }, /slot/],
    ["eat", {}, /slot/],
    ["use_item", { slot: 0, action: "juggle" }, /action/],
    ["cast", { spellId: 7, targetId: "x" }, /spellId/],
    ["prayer", { prayerId: "thick_skin" }, /on/],
    ["trade", { op: "haggle" }, /op/],
    ["trade", { op: "offer", slot: 0 }, /tradeId: required/],
    ["chat", { message: "hi", channel: "private" }, /to/],
    ["note", { text: "" }, /text/],
    ["quest_journal", { all: true }, /quest_journal/],
    ["set_goal", {}, /goalId, or type/],
    ["set_goal", { type: "sleeping" }, /type/],
    ["agent_status", { verbose: 1 }, /agent_status/],
    ["wait", { ticks: 0 }, /ticks/],
    ["wait", { for: ["nothing:here"] }, /for/],
    ["setting", { name: "autoRetaliate", value: "off" }, /value/],
    ["home_teleport", { to: "home" }, /home_teleport/],
    ["cross_obstacle", { obstacleId: "" }, /obstacleId/],
    ["pickpocket", { npcId: 5 }, /npcId/],
    ["steal_from_stall", {}, /stallId/],
    ["travel", { npcId: 5 }, /npcId/],
  ];

  it("every tool has a title and the spec's hints: read-only, destructive, idempotent, open-world", async () => {
    const tools = (await c.client.listTools()).tools;
    // The core tools and the feature folders' (src/features/index.ts MCP_TOOLS), each once.
    assert.deepEqual(tools.map((t) => t.name).sort(), [...Object.keys(TOOL_META), ...MCP_TOOLS.map((t) => t.name)].sort());
    for (const t of tools) {
      assert.ok(t.title && t.title === t.annotations?.title, `${t.name} has a title`);
      for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const)
        assert.equal(typeof t.annotations?.[hint], "boolean", `${t.name} ${hint}`);
    }
    const hints = (name: string) => tools.find((t) => t.name === name)!.annotations!;
    for (const name of ["observe", "quest_journal", "agent_status"]) assert.equal(hints(name).readOnlyHint, true, name);
    for (const name of ["store_sell", "trade", "use_item", "pickpocket"]) assert.equal(hints(name).destructiveHint, true, name);
    assert.equal(hints("cross_obstacle").destructiveHint, false);
    for (const name of ["move_to", "interact", "store_buy"]) assert.equal(hints(name).readOnlyHint, false, name);
    assert.equal(hints("chat").openWorldHint, true);
    assert.equal(hints("observe").destructiveHint, false);
    // Every tool declares its answer's shape: what every answer carries, and its own fields.
    for (const t of tools) {
      const props = Object.keys((t.outputSchema as { properties?: object } | undefined)?.properties ?? {});
      for (const field of ["error", "events", "vitals"]) assert.ok(props.includes(field), `${t.name}'s outputSchema names ${field}: ${props}`);
    }
    const props = (name: string) => Object.keys((tools.find((t) => t.name === name)!.outputSchema as { properties: object }).properties);
    assert.ok(props("move_to").includes("done") && props("move_to").includes("arrived"));
    assert.ok(props("quest_journal").includes("quests"));
    // A feature's tool: the action's outcome fields and its own.
    for (const field of ["done", "gained", "position", "stolen", "caught"]) assert.ok(props("pickpocket").includes(field), field);
  });

  it("a feature's tool may not take a name in use: a core tool's or another feature's", () => {
    checkFeatureTools(MCP_TOOLS);
    const [first] = MCP_TOOLS;
    assert.throws(() => checkFeatureTools([...MCP_TOOLS, { ...first, name: "observe" }]), /MCP tool observe .* already in use/);
    assert.throws(() => checkFeatureTools([...MCP_TOOLS, first]), new RegExp(`MCP tool ${first.name} .* already in use`));
  });

  it("answers that break their outputSchema are caught by the SDK's client: the server's answers, good and refused, keep to theirs", async () => {
    // The client checks structuredContent against the schema listed; these pass only because they keep to it.
    const seen = await c.call("observe");
    assert.equal(seen.isError, false);
    const refused = await c.call("interact", { action: "talk", targetId: "npc:nowhere" });
    assert.equal(refused.isError, true);
    assert.equal(typeof refused.body.error.code, "string");
    // A schema the answer does not keep to is refused by the same client: the check is real.
    const strict = c.client as unknown as { getToolOutputValidator(name: string): ((v: unknown) => { valid: boolean }) | undefined };
    const validate = strict.getToolOutputValidator("observe")!;
    assert.equal(validate(seen.body).valid, true);
    assert.equal(validate({ ...seen.body, vitals: { health: "full" } }).valid, false);
    assert.equal(validate({ ...seen.body, error: { code: 7 } }).valid, false);
  });

  it("every tool answers bad arguments with a tool error INVALID_PAYLOAD naming the field, never a crash or a stack", async () => {
    const tools = (await c.client.listTools()).tools.map((t) => t.name);
    // Every tool is covered here.
    for (const name of tools)
      assert.ok(
        BAD.some(([n]) => n === name),
        `no bad input for ${name}`,
      );
    for (const [name, args, field] of BAD) {
      const r = await c.call(name, args);
      assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} was not refused: ${r.text}`);
      assert.match(r.text, /^INVALID_PAYLOAD: /, `${name}: ${r.text}`);
      assert.match(r.text, field, `${name}: ${r.text}`);
      assert.equal(r.body.error.code, "INVALID_PAYLOAD");
      assert.doesNotMatch(r.text, /\n\s+at |\.ts:\d+/, `${name}: a stack in ${r.text}`);
    }
    const unknown = await c.call("fly", {});
    assert.equal(unknown.isError, true);
    // The session still plays.
    assert.equal((await c.call("observe")).isError, false);
  });

  it("the rules' refusals come back with their documented codes", async () => {
    const me = (await c.call("observe")).body.you;
    const far = await c.call("move_to", { x: me.x + 500, z: me.z });
    assert.match(far.text, /^(TOO_FAR|OUT_OF_BOUNDS): /);
    const unknown = await c.call("interact", { action: "gather", targetId: "tree:nowhere" });
    assert.match(unknown.text, /^UNKNOWN_TARGET: /);
    const noStore = await c.call("store_buy", { itemId: "knife", quantity: 1 });
    assert.match(noStore.text, /^STORE_NOT_OPEN: /);
    const noTrade = await c.call("trade", { op: "accept", tradeId: "t_none" });
    assert.match(noTrade.text, /^UNKNOWN_TRADE: /);
    const noGoal = await c.call("set_goal", { goalId: "woodcutting:nothing" });
    assert.match(noGoal.text, /^UNKNOWN_GOAL: /);
    const noRecipe = await c.call("make", { kind: "smithing", recipeId: "golden_crown" });
    assert.match(noRecipe.text, /^UNKNOWN_RECIPE: /);
  });

  it("setting turns auto-retaliate off (an unknown one is refused UNKNOWN_SETTING); home_teleport casts and lands at the spawn, then is on cooldown", async () => {
    const off = await c.call("setting", { name: "autoRetaliate", value: false });
    assert.equal(off.isError, false, off.text);
    assert.equal(off.body.vars.autoRetaliate, false);
    assert.match((await c.call("setting", { name: "homeTeleportReadyAt", value: 0 })).text, /^UNKNOWN_SETTING: .*autoRetaliate/);
    const room = await theWorld();
    const me = (await c.call("observe")).body.you;
    assert.equal(me.vars.autoRetaliate, false, "observe shows the settings");
    const p = room.world.players.get(me.id)!;
    p.tile = { x: room.world.spawnTile.x + 5, z: room.world.spawnTile.z - 4 };
    room.world.place("player", p.id, p.tile);
    const steps: Array<{ progress: number }> = [];
    const home = await c.call("home_teleport", {}, { onprogress: (s) => steps.push(s) });
    assert.equal(home.isError, false, home.text);
    assert.equal(home.body.arrived, true);
    assert.deepEqual(home.body.position, room.world.spawnTile);
    assert.ok(home.body.readyAt > Date.now());
    assert.ok(steps.length >= 10, "progress while casting");
    assert.match((await c.call("home_teleport", {})).text, /^TELEPORT_COOLDOWN: /);
    // An agility obstacle, by the id observe lists.
    p.tile = { x: 136, z: 122 };
    room.world.place("player", p.id, p.tile);
    room.world.touchPlayer(p, true);
    const near = (await c.call("observe")).body.near.stations as Array<{ id: string }>;
    assert.ok(
      near.some((st) => st.id === "obstacle:thornwood_trail:mossy_log"),
      JSON.stringify(near),
    );
    setRng(room, 0.99); // no fall
    const crossed = await c.call("cross_obstacle", { obstacleId: "obstacle:thornwood_trail:mossy_log" });
    assert.equal(crossed.isError, false, crossed.text);
    assert.equal(crossed.body.crossed, true);
    assert.deepEqual(crossed.body.position, { x: 142, z: 122 });
    assert.match((await c.call("cross_obstacle", { obstacleId: "obstacle:thornwood_trail:rope_swing" })).text, /^LEVEL_TOO_LOW: /);
    (room.world as unknown as { rng: () => number }).rng = Math.random;
  });

  it("pickpocket and steal_from_stall: the loot and xp, a stall left empty, a thief caught and stunned", async () => {
    const room = await theWorld();
    const me = (await c.call("observe")).body.you;
    const p = room.world.players.get(me.id)!;
    p.xp.thieving = xpForLevel(5);
    refreshLevels(p);
    place(room, p.id, { x: 107, z: 98 });
    setRng(room, 0.99); // no fall, the last loot entry
    const stole = await c.call("steal_from_stall", { stallId: "stall:fish_stall" });
    assert.equal(stole.isError, false, stole.text);
    assert.equal(stole.body.stolen, true);
    assert.ok(p.inventory.some((st) => st?.itemId === "raw_trout"));
    assert.match((await c.call("steal_from_stall", { stallId: "stall:fish_stall" })).text, /^STALL_EMPTY: /);
    const v = [...room.world.npcs.values()].find((n) => n.defId === "villager")!;
    setRng(room, 0); // caught
    const caught = await c.call("pickpocket", { npcId: v.id });
    assert.equal(caught.isError, false, caught.text);
    assert.deepEqual([caught.body.stolen, caught.body.caught], [false, true]);
    assert.match((await c.call("move_to", { x: p.tile.x - 3, z: p.tile.z })).text, /^STUNNED: /);
    (room.world as unknown as { rng: () => number }).rng = Math.random;
    await ticks(room, (p.vars.stunnedUntilTick as number) - room.world.tick + 1); // the stun over before the next test
    assert.equal(p.vars.stunnedUntilTick, 0);
  });

  it("a walk reports progress each tick to a client that asked, and answers once there", async () => {
    const room = await theWorld();
    const me = (await c.call("observe")).body.you;
    let target: { x: number; z: number } | undefined;
    for (let d = 8; d >= 4 && !target; d--)
      for (const [dx, dz] of [
        [d, 0],
        [-d, 0],
        [0, d],
        [0, -d],
      ])
        if (!target && !room.world.map.isBlocked(me.x + dx, me.z + dz)) target = { x: me.x + dx, z: me.z + dz };
    assert.ok(target);
    const steps: Array<{ progress: number; total?: number; message?: string }> = [];
    const walked = await c.call("move_to", { ...target }, { onprogress: (p) => steps.push(p) });
    assert.equal(walked.isError, false, walked.text);
    assert.equal(walked.body.arrived, true);
    assert.deepEqual(walked.body.position, target);
    assert.ok(steps.length >= 1, "no progress notification");
    assert.ok(steps.every((p, i) => i === 0 || p.progress >= steps[i - 1].progress));
    assert.match(steps[0].message ?? "", /^at -?\d+,-?\d+/);
  });

  it("chat is heard back; wait returns the event waited for; set_goal hands a goal to the runtime and agent_status shows it", async () => {
    const said = await c.call("chat", { message: "hello from an agent", channel: "world" });
    assert.equal(said.isError, false, said.text);
    assert.ok(said.body.events.some((e: { kind: string; message: string }) => e.kind === "chat:message" && e.message === "hello from an agent"));

    const status = await c.call("agent_status");
    assert.equal(status.body.goal, null);
    const chop = status.body.availableGoals.find((g: { id: string; available: boolean }) => g.id === "woodcutting:tree_normal");
    assert.ok(chop?.available, JSON.stringify(status.body.availableGoals.slice(0, 5)));
    const set = await c.call("set_goal", { goalId: chop.id });
    assert.equal(set.isError, false, set.text);
    assert.equal(set.body.goal.type, "woodcutting");
    // The runtime plays it: the player gets logs while the client only waits.
    const waited = await c.call("wait", { for: ["skill:xp"], maxTicks: 90 });
    assert.equal(waited.isError, false, waited.text);
    assert.equal(waited.body.done, true, waited.text);
    assert.ok(waited.body.gained.logs >= 1, waited.text);
    assert.equal(waited.body.goal.type, "woodcutting");
    // Any action tool takes over from the goal.
    await c.call("interact", { action: "stop" });
    assert.equal((await c.call("agent_status")).body.goal, null);
    // A plain wait lets ticks pass.
    const ticks = await c.call("wait", { ticks: 2 });
    assert.equal(ticks.body.done, true);
  });

  it("serves the map, the catalogue, the rules and the quest journal as resources, and the play prompt", async () => {
    const list = (await c.client.listResources()).resources.map((r) => r.uri).sort();
    assert.deepEqual(list, ["arena://character/quests", "arena://world/catalogue", "arena://world/map", "arena://world/rules"]);
    const map = JSON.parse(((await c.client.readResource({ uri: "arena://world/map" })).contents[0] as { text: string }).text);
    assert.ok(map.townsfolk.some((t: { npcId: string }) => t.npcId === "warden_holt"));
    assert.ok(map.stations.length > 0 && map.areas.length > 0);
    const cat = JSON.parse(((await c.client.readResource({ uri: "arena://world/catalogue" })).contents[0] as { text: string }).text);
    assert.ok(cat.items.some((i: { id: string }) => i.id === "logs"));
    const rules = ((await c.client.readResource({ uri: "arena://world/rules" })).contents[0] as { text: string }).text;
    assert.match(rules, /observe/);
    const prompt = await c.client.getPrompt({ name: "play", arguments: { aim: "get rich" } });
    assert.match((prompt.messages[0].content as { text: string }).text, /get rich/);
  });
});
