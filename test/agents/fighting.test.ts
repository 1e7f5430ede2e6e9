import assert from "node:assert/strict";
import { createWorld } from "../../rooms/worldSetup.js";
import { newMind, step } from "../../src/agents/brain.js";
import { prepareToFight } from "../../src/agents/fighting.js";
import { knowledgeOf, type WorldKnowledge } from "../../src/game/world/knowledge.js";
import { goalFrom } from "../../src/agents/mind.js";
import { isKept } from "../../src/agents/pack.js";
import { AgentView } from "../../src/agents/view.js";
import { defaultGameData } from "../helpers/server.js";

/** An agent's fight, pure: the style its gear allows, its arrows put on, a spell, a prayer, its drops and its bank. */
describe("agent fighting", () => {
  let k: WorldKnowledge;
  const viewWith = (o: {
    inventory?: Array<[string, number]>;
    equipment?: Record<string, [string, number]>;
    skills?: Record<string, number>;
    prayer?: { points: number; active: string[] };
  }) => {
    const v = new AgentView();
    const levels = o.skills ?? {};
    v.sync({
      id: "c_me",
      name: "Me",
      position: { x: 100, y: 0, z: 100 },
      health: 100,
      maxHealth: 100,
      combatLevel: 3,
      skills: Object.fromEntries(
        ["attack", "strength", "defense", "constitution", "ranged", "magic", "prayer"].map((s) => [s, { level: levels[s] ?? 1, xp: 0 }]),
      ),
      inventory: (o.inventory ?? []).map(([itemId, quantity], slot) => ({ slot, itemId, quantity })),
      equipment: Object.fromEntries(Object.entries(o.equipment ?? {}).map(([slot, [itemId, quantity]]) => [slot, { itemId, quantity }])),
      bank: null,
      action: null,
      prayer: { points: o.prayer?.points ?? 0, max: levels.prayer ?? 1, active: o.prayer?.active ?? [] },
      autocast: null,
    });
    return v;
  };

  before(async () => {
    k = knowledgeOf(createWorld(await defaultGameData()));
  });

  it("a bow with arrows worn shoots; arrows in the pack are put on first; without any it fights bare-handed", () => {
    assert.deepEqual(prepareToFight(k, viewWith({ equipment: { weapon: ["shortbow", 1], arrows: ["bronze_arrow", 50] } }).self!), {
      orders: [],
      kind: "ranged",
    });
    const packed = prepareToFight(
      k,
      viewWith({
        equipment: { weapon: ["shortbow", 1] },
        inventory: [
          ["logs", 1],
          ["bronze_arrow", 30],
        ],
      }).self!,
    );
    assert.deepEqual(packed.orders, [{ type: "inventory:use", data: { slot: 1, action: "equip" } }]);
    const none = prepareToFight(k, viewWith({ equipment: { weapon: ["shortbow", 1] } }).self!);
    assert.deepEqual([none.kind, none.orders[0]?.data], ["melee", { slot: 0, action: "unequip", targetId: "weapon" }]);
  });

  it("a staff autocasts the strongest spell its runes allow; bare hands cast it each attack; a sword swings", () => {
    const staff = prepareToFight(k, viewWith({ equipment: { weapon: ["gale_staff", 1] }, inventory: [["mind_rune", 20]], skills: { magic: 10 } }).self!);
    // The gale staff gives air: the mind runes alone cast gust dart, the strongest spell with no other rune.
    assert.deepEqual([staff.kind, staff.orders[0]], ["magic", { type: "combat:autocast", data: { spellId: "gust_dart" } }]);
    const bare = prepareToFight(
      k,
      viewWith({
        inventory: [
          ["air_rune", 20],
          ["mind_rune", 20],
          ["water_rune", 20],
        ],
        skills: { magic: 5 },
      }).self!,
    );
    assert.deepEqual([bare.kind, bare.castSpell], ["magic", "brine_dart"]);
    assert.deepEqual(
      prepareToFight(
        k,
        viewWith({
          equipment: { weapon: ["bronze_shortsword", 1] },
          inventory: [
            ["air_rune", 20],
            ["mind_rune", 20],
          ],
        }).self!,
      ),
      { orders: [], kind: "melee" },
    );
  });

  it("turns on the best prayers it may use while it has points, none without", () => {
    const praying = prepareToFight(k, viewWith({ skills: { prayer: 10 }, prayer: { points: 10, active: [] } }).self!);
    const ids = praying.orders.map((o) => (o.data as { prayerId: string }).prayerId);
    assert.deepEqual(ids.sort(), ["iron_ward", "ox_resolve", "steady_hand"]);
    assert.deepEqual(prepareToFight(k, viewWith({ skills: { prayer: 10 }, prayer: { points: 0, active: [] } }).self!).orders, []);
    assert.deepEqual(prepareToFight(k, viewWith({ skills: { prayer: 4 }, prayer: { points: 4, active: ["bark_ward", "ox_resolve"] } }).self!).orders, []);
  });

  it("keeps its arrows, runes and food when it banks; a fight with a full pack banks first, and picks up its drops between fights", () => {
    for (const id of ["bronze_arrow", "mind_rune", "shrimp"]) assert.ok(isKept(k, id), id);
    assert.ok(!isKept(k, "bones"));
    const full = viewWith({ inventory: Array.from({ length: 28 }, () => ["bones", 1] as [string, number]) });
    const mind = newMind(() => 0.5);
    mind.goal = goalFrom({ type: "combat", target: "goblin" }, full, "command");
    step(mind, full, k);
    assert.equal(mind.goal?.type, "bank");
    assert.equal(mind.goal?.resume?.type, "combat");
    const looting = viewWith({});
    looting.update({ tick: 5, groundItems: [{ id: "g1", itemId: "bones", quantity: 1, x: 101, z: 100 }] });
    const m2 = newMind(() => 0.5);
    m2.goal = goalFrom({ type: "combat", target: "goblin" }, looting, "command");
    assert.deepEqual(step(m2, looting, k), [{ type: "player:action", data: { action: "pickup", targetId: "g1" } }]);
  });
});
