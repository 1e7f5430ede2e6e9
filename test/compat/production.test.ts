import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { addItemAll, countItem, emptyInventory } from "../../src/game/inventory.js";
import { xpForLevel } from "../../src/game/skills.js";
import type { SkillName } from "../../src/game/types.js";
import type { StationEntity } from "../../src/game/world/entities.js";
import { isTanner } from "../../src/game/world/making.js";
import { refreshLevels } from "../../src/game/world/xp.js";
import type { Recipe } from "../../src/manifests/recipes.js";
import { loadGameData } from "../../src/manifests/index.js";
import { PRODUCTION_KINDS } from "../../src/protocol/vocabulary.js";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { joinWorld, type WorldPlayer } from "../helpers/worldClient.js";
import { besideOf, place, setRng, worldRoomOf } from "../helpers/worldRoom.js";
import { captureLogger, COMPAT_2026, requireCompat } from "../manifests/support.js";
import { countIn, talkTo } from "./compatPlay.js";

/**
 * The real game's production files played in a real server over the SDK: one output of each
 * file's recipe made at the set's own stations (its furnace, anvil, air altar) or its tanner, with
 * the inputs, tools, quantities, costs and xp the recipe data names; and every recipe of every
 * production file either playable in the world or named in the load warnings.
 */

function recipeOf(room: WorldRoom, kind: string, pred: (r: Recipe) => boolean, what: string): Recipe {
  const r = room.world.data.recipes[kind]?.find(pred);
  assert.ok(r, `the set's ${kind} has no ${what}`);
  return r;
}

function stationOf(room: WorldRoom, type: string, runeType?: string): StationEntity {
  const s = [...room.world.stations.values()].find((x) => x.type === type && (!runeType || x.runeType === runeType));
  assert.ok(s, `no ${type}${runeType ? ` (${runeType})` : ""} in the world`);
  return s;
}

/** Scene setup: add these stacks to the pack (non-stackable items take a slot each). */
function stock(room: WorldRoom, p: WorldPlayer, stacks: Array<[string, number]>) {
  const e = room.world.players.get(p.id)!;
  for (const [itemId, quantity] of stacks) {
    assert.ok(room.world.data.items.has(itemId), `the set has no item ${itemId}`);
    const added = addItemAll(e.inventory, itemId, quantity, room.world.data.items);
    e.inventory = added.inventory;
  }
  room.world.touchPlayer(e);
}

/** Scene setup: an empty pack and this level in a skill. */
function freshMaker(room: WorldRoom, p: WorldPlayer, skill: string, level = 1) {
  const e = room.world.players.get(p.id)!;
  e.inventory = emptyInventory();
  e.xp[skill as SkillName] = xpForLevel(level);
  refreshLevels(e);
  room.world.touchPlayer(e, true);
  assert.equal(e.levels[skill as SkillName], level);
}

/** The inputs one attempt takes (the recipe's, and its coins for tanning), as the data names them. */
const inputsOf = (r: Recipe): Array<[string, number]> => [
  ...r.inputs.map((i): [string, number] => [i.itemId, i.quantity]),
  ...(r.coins ? [["coins", r.coins] as [string, number]] : []),
];

/**
 * Make one of `recipe` (already standing where it is made, the pack set up) and check everything:
 * production:made, the pack's inputs down and outputs up by the data's quantities, the tools
 * kept, and the skill's xp up by the recipe's xp (stored whole).
 */
async function makeOne(p: WorldPlayer, room: WorldRoom, recipe: Recipe, opts: { stationId?: string; perOutput?: number } = {}) {
  const e = room.world.players.get(p.id)!;
  const skill = recipe.skill as SkillName;
  const xpBefore = e.xp[skill];
  const have = (id: string) => countItem(e.inventory, id);
  const made = recipe.outputs.map((o) => ({ itemId: o.itemId, quantity: o.quantity * (opts.perOutput ?? 1) }));
  const expected = new Map<string, number>();
  for (const id of [...inputsOf(recipe).map(([i]) => i), ...made.map((o) => o.itemId), ...recipe.tools]) expected.set(id, have(id));
  for (const [id, q] of inputsOf(recipe)) expected.set(id, expected.get(id)! - q);
  for (const o of made) expected.set(o.itemId, expected.get(o.itemId)! + o.quantity);
  for (const [id, q] of inputsOf(recipe)) assert.ok(have(id) >= q, `scene: ${q} x ${id} in the pack`);

  const since = p.mark();
  p.send("production:make", { kind: recipe.kind, recipeId: recipe.id, count: 1, ...(opts.stationId ? { stationId: opts.stationId } : {}) });
  const result = await p.next("production:made", () => true, { since });
  assert.deepEqual(result, { kind: recipe.kind, recipeId: recipe.id, success: true, made, remaining: 0 });
  const sync = await p.next("player:sync", (s) => s.action === null && [...expected].every(([id, n]) => countIn(s, id) === n), { since });
  for (const [id, n] of expected) assert.equal(countIn(sync, id), n, `${id} in the pack after making ${recipe.id}`);
  // Every scene holds exactly one attempt's inputs: they are gone.
  for (const i of recipe.inputs) assert.equal(countIn(sync, i.itemId), 0, `${i.itemId} used up by ${recipe.id}`);

  const xpAfter = Math.round(xpBefore + recipe.xp);
  assert.equal(e.xp[skill], xpAfter, `${skill} xp after ${recipe.id}`);
  assert.equal(sync.skills[skill].xp, xpAfter);
  const xpMessages = p.received.slice(since).filter((m) => m.type === "skill:xp" && m.data.skill === skill);
  if (xpAfter > xpBefore) {
    assert.equal(xpMessages.length, 1);
    assert.equal(xpMessages[0]!.data.gained, xpAfter - xpBefore);
    assert.equal(xpMessages[0]!.data.xp, xpAfter);
  } else assert.equal(xpMessages.length, 0, "a recipe of no xp grants none");
  assert.equal(p.received.slice(since).filter((m) => m.type === "error").length, 0);
  return sync;
}

describe("compat: the 2026 set's production played in a real server", function () {
  this.timeout(60_000);
  let server: TestServer;
  const players: WorldPlayer[] = [];
  const join = async () => {
    const p = await joinWorld(server);
    players.push(p);
    const room = worldRoomOf(p);
    // Every recipe with a successRate succeeds.
    setRng(room, 0);
    return { p, room };
  };

  before(async function () {
    requireCompat(COMPAT_2026);
    const gameData = await loadGameData(COMPAT_2026, captureLogger().logger);
    server = await startTestServer({ gameData });
  });
  afterEach(async () => {
    const room = players[0] && worldRoomOf(players[0]);
    await Promise.all(players.splice(0).map((p) => p.leave().catch(() => {})));
    if (room) setRng(room, 0.5);
  });
  after(async () => {
    await server?.close();
  });

  it("smelting: a bronze bar at the set's furnace from the ores the recipe names", async () => {
    const { p, room } = await join();
    const recipe = recipeOf(room, "smelting", (r) => r.id === "bronze_bar", "bronze_bar");
    assert.equal(recipe.station, "furnace");
    freshMaker(room, p, recipe.skill, recipe.level);
    stock(room, p, inputsOf(recipe));
    place(room, p.id, besideOf(room, stationOf(room, "furnace").tile));
    await makeOne(p, room, recipe);
  });

  it("smithing: the bronze sword of the set's smithing file at its anvil, with a hammer", async () => {
    const { p, room } = await join();
    const recipe = recipeOf(
      room,
      "smithing",
      (r) => r.inputs[0]?.itemId === "bronze_bar" && /^bronze_.*sword$/.test(r.id) && r.level <= 1,
      "level-1 bronze sword",
    );
    assert.equal(recipe.station, "anvil");
    freshMaker(room, p, recipe.skill, recipe.level);
    const hammer = room.world.data.items.has("hammer");
    stock(room, p, [...inputsOf(recipe), ...recipe.tools.map((t): [string, number] => [t, 1]), ...(hammer ? [["hammer", 1] as [string, number]] : [])]);
    const anvil = stationOf(room, "anvil");
    place(room, p.id, besideOf(room, anvil.tile));
    const sync = await makeOne(p, room, recipe, { stationId: anvil.id });
    if (hammer) assert.equal(countIn(sync, "hammer"), 1, "the hammer is kept");
  });

  it("crafting: leather gloves with the needle and thread the recipe names, at no station", async () => {
    const { p, room } = await join();
    const recipe = recipeOf(room, "crafting", (r) => r.id === "leather_gloves", "leather_gloves");
    assert.equal(recipe.station, undefined);
    assert.ok(recipe.tools.includes("needle"));
    assert.ok(recipe.inputs.some((i) => i.itemId === "thread"));
    freshMaker(room, p, recipe.skill, recipe.level);
    stock(room, p, [...inputsOf(recipe), ...recipe.tools.map((t): [string, number] => [t, 1])]);
    const sync = await makeOne(p, room, recipe);
    assert.equal(countIn(sync, "needle"), 1, "the needle is kept");
  });

  it("tanning: the tanner's openTanner answer shows tanner:open; a hide is tanned there for the data's cost", async () => {
    const { p, room } = await join();
    const recipe = recipeOf(room, "tanning", (r) => r.inputs[0]?.itemId === "cowhide", "cowhide");
    assert.ok(recipe.coins! > 0);
    const def = room.world.data.npcs.get("tanner")!;
    const [entry] = [...def.dialogue!.nodes.values()].filter((n) => n.responses.some((r) => r.effect === "openTanner"));
    assert.ok(entry, "the tanner's dialogue has an openTanner answer");
    const index = entry.responses.findIndex((r) => r.effect === "openTanner");

    freshMaker(room, p, recipe.skill);
    stock(room, p, [...inputsOf(recipe), ["coins", 3]]);
    const since = p.mark();
    const { npc, node } = await talkTo(p, room, "tanner");
    assert.ok(isTanner(room.world, npc));
    assert.equal(node.nodeId, entry.id);
    assert.equal(node.responses[index].text, entry.responses[index]!.text);
    p.send("dialogue:respond", { index });
    const offer = await p.next("tanner:open", () => true, { since });
    assert.equal(offer.npcId, npc.id);
    assert.deepEqual(
      offer.recipes.map((r: { recipeId: string }) => r.recipeId),
      room.world.data.recipes.tanning!.map((r) => r.id),
    );
    const sync = await makeOne(p, room, recipe, { stationId: npc.id });
    assert.equal(countIn(sync, "coins"), 3, "only the cost is taken");
  });

  it("fletching: logs to arrow shafts with a knife, shafts and feathers to headless arrows, bronze arrowtips to bronze arrows", async () => {
    const { p, room } = await join();
    const fletching = (pred: (r: Recipe) => boolean, what: string) => recipeOf(room, "fletching", pred, what);
    const shafts = fletching((r) => r.id === "arrow_shaft" && r.inputs[0]?.itemId === "logs", "arrow shafts from logs");
    const headless = fletching((r) => r.id === "headless_arrow", "headless_arrow");
    const bronze = fletching((r) => r.id === "bronze_arrow", "bronze_arrow");
    assert.ok(shafts.tools.includes("knife"));
    assert.ok(headless.inputs.some((i) => i.itemId === "arrow_shaft"));
    assert.ok(
      headless.inputs.some((i) => /^feathers?$/.test(i.itemId)),
      "the set's feathers",
    );
    assert.ok(bronze.inputs.some((i) => i.itemId === "headless_arrow") && bronze.inputs.some((i) => i.itemId === "bronze_arrowtips"));
    freshMaker(room, p, "fletching", Math.max(shafts.level, headless.level, bronze.level));
    const e = room.world.players.get(p.id)!;
    /** What the pack lacks of a recipe's inputs (the earlier step made some). */
    const shortOf = (r: Recipe) =>
      inputsOf(r)
        .map(([id, q]): [string, number] => [id, q - countItem(e.inventory, id)])
        .filter(([, q]) => q > 0);

    stock(room, p, [...inputsOf(shafts), ...shafts.tools.map((t): [string, number] => [t, 1])]);
    let sync = await makeOne(p, room, shafts);
    assert.equal(countIn(sync, "arrow_shaft"), shafts.outputs[0]!.quantity);

    stock(room, p, shortOf(headless));
    sync = await makeOne(p, room, headless);
    assert.equal(countIn(sync, "headless_arrow"), headless.outputs[0]!.quantity);

    stock(room, p, shortOf(bronze));
    sync = await makeOne(p, room, bronze);
    assert.equal(countIn(sync, "bronze_arrow"), bronze.outputs[0]!.quantity);
    for (const r of [shafts, headless, bronze]) for (const [id] of inputsOf(r)) assert.equal(countIn(sync, id), 0, `${id} used up`);
    assert.equal(countIn(sync, "knife"), 1, "the knife is kept");
  });

  it("fletching: the set makes arrow shafts from every log type; oak logs make them with the oak recipe (one item, several recipes)", async () => {
    const { p, room } = await join();
    const oak = recipeOf(room, "fletching", (r) => r.id === "arrow_shaft" && r.inputs[0]?.itemId === "oak_logs", "arrow shafts from oak logs");
    assert.ok(room.world.data.recipes.fletching!.filter((r) => r.id === "arrow_shaft").length > 1);
    freshMaker(room, p, "fletching", oak.level);
    stock(room, p, [...inputsOf(oak), ...oak.tools.map((t): [string, number] => [t, 1])]);
    const sync = await makeOne(p, room, oak);
    assert.equal(countIn(sync, "oak_logs"), 0);
    assert.equal(countIn(sync, "arrow_shaft"), oak.outputs[0]!.quantity);
  });

  it("runecrafting: air runes at the air altar from rune essence; at the first of the data's multiRuneLevels one essence makes two", async () => {
    const { p, room } = await join();
    const recipe = recipeOf(room, "runecrafting", (r) => r.runeType === "air", "air rune");
    assert.equal(recipe.inputs[0]!.itemId, "rune_essence");
    const multi = [...((recipe.raw as { multiRuneLevels?: number[] }).multiRuneLevels ?? [])].sort((a, b) => a - b);
    assert.ok(multi.length > 0 && multi[0]! > recipe.level, "the data names levels making more runes");
    const altar = stationOf(room, "runecrafting_altar", recipe.runeType);
    place(room, p.id, besideOf(room, altar.tile));

    freshMaker(room, p, recipe.skill, recipe.level);
    stock(room, p, inputsOf(recipe));
    await makeOne(p, room, recipe, { perOutput: 1 });

    freshMaker(room, p, recipe.skill, multi[0]!);
    stock(room, p, inputsOf(recipe));
    const perOutput = 1 + multi.filter((l) => l <= multi[0]!).length;
    assert.equal(perOutput, 2);
    const sync = await makeOne(p, room, recipe, { perOutput });
    assert.equal(countIn(sync, recipe.id), 2 * recipe.outputs[0]!.quantity);
  });

  it("every recipe of every production file is playable in the world (station placed, none needed, or a tanner) or named in the load warnings", async () => {
    const { room } = await join();
    const data = room.world.data;
    const tannerPlaced = [...room.world.npcs.values()].some((n) => isTanner(room.world, n));
    const playable = (r: Recipe) =>
      !r.station ||
      (r.station === "tanner"
        ? tannerPlaced
        : [...room.world.stations.values()].some((s) => s.type === r.station && (!r.runeType || s.runeType === r.runeType)));
    let total = 0;
    let played = 0;
    const warnedOnly: string[] = [];
    for (const kind of PRODUCTION_KINDS) {
      const file = path.join(COMPAT_2026, "recipes", `${kind}.json`);
      if (!existsSync(file)) continue;
      const raw = (JSON.parse(readFileSync(file, "utf8")) as { recipes: Array<Record<string, unknown>> }).recipes;
      const ids = raw.map((v) => String(v.output ?? v.runeItemId ?? v.id));
      const warned = (id: string) => data.warnings.some((w) => w.startsWith(`recipes/${kind}.json: recipe ${id}:`));
      const loaded = data.recipes[kind] ?? [];
      const skipped = data.warnings.filter((w) => w.startsWith(`recipes/${kind}.json: recipe `) && w.endsWith("; skipped"));
      assert.equal(loaded.length + skipped.length, raw.length, `${kind}: every recipe is loaded or skipped with a warning`);
      // Each recipe of the file (the loaded ones in file order, the skipped ones warned).
      let next = 0;
      for (const id of ids) {
        total++;
        const r = loaded[next]?.id === id ? loaded[next++] : undefined;
        if (r && playable(r)) played++;
        else {
          assert.ok(warned(id), `${kind} recipe ${id}: neither playable nor named in the load warnings`);
          warnedOnly.push(`${kind}:${id}`);
        }
      }
      assert.equal(next, loaded.length, `${kind}: the loaded recipes are the file's, in order`);
    }
    assert.ok(total > 100, `${total} production recipes`);
    assert.equal(played + warnedOnly.length, total);
    // The 2026 set places a furnace, an anvil, an altar of every rune and the tanner: all play.
    assert.deepEqual(warnedOnly, []);
    assert.ok(tannerPlaced);
  });
});
