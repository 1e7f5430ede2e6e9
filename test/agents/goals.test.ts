import assert from "node:assert/strict";
import { createWorld } from "../../rooms/worldSetup.js";
import { newMind, step } from "../../src/agents/brain.js";
import { availableGoals, chooseGoal, parseCommand } from "../../src/agents/goals.js";
import { knowledgeOf, type WorldKnowledge } from "../../src/game/world/knowledge.js";
import { AgentView } from "../../src/agents/view.js";
import { defaultGameData } from "../helpers/server.js";

/** The agent's pure parts: commands, goal choice, and one decision step over what it sees. */
describe("agent goals and decisions", () => {
  let k: WorldKnowledge;
  const viewWith = (inventory: Array<[string, number]>, skills: Record<string, number> = {}, extra: Record<string, unknown> = {}) => {
    const v = new AgentView();
    v.sync({
      id: "c_me",
      name: "Me",
      position: { x: 100, y: 0, z: 100 },
      health: 100,
      maxHealth: 100,
      combatLevel: 3,
      skills: Object.fromEntries(
        ["woodcutting", "mining", "fishing", "attack", "strength", "defense", "constitution"].map((s) => [s, { level: skills[s] ?? 1, xp: 0 }]),
      ),
      inventory: inventory.map(([itemId, quantity], slot) => ({ slot, itemId, quantity })),
      equipment: {},
      bank: null,
      action: null,
      ...extra,
    });
    return v;
  };

  before(async () => {
    k = knowledgeOf(createWorld(await defaultGameData()));
  });

  it("understands the documented commands and nothing else", () => {
    const cases: Array<[string, unknown]> = [
      ["chop trees", { kind: "gather", skill: "woodcutting" }],
      ["Chop down some trees!", { kind: "gather", skill: "woodcutting" }],
      ["mine", { kind: "gather", skill: "mining" }],
      ["fish", { kind: "gather", skill: "fishing" }],
      ["attack goblin", { kind: "attack", npc: "goblin" }],
      ["attack the goblins", { kind: "attack", npc: "goblin" }],
      ["pick up", { kind: "pickup" }],
      ["go to bank", { kind: "bank" }],
      ["go to the bank", { kind: "bank" }],
      ["stop", { kind: "stop" }],
      ["idle", { kind: "idle" }],
      ["sell", { kind: "sell" }],
      ["sell my logs", { kind: "sell" }],
      ["buy a hatchet", { kind: "buy", item: "hatchet" }],
      ["Buy an iron pickaxe!", { kind: "buy", item: "iron pickaxe" }],
      ["do quest The Warden's Letter", { kind: "quest", quest: "the wardens letter" }],
      ["quest", { kind: "quest", quest: null }],
      ["what is the meaning of life", null],
      ["chop the king", null],
      ["sell the king", null],
    ];
    for (const [text, want] of cases) assert.deepEqual(parseCommand(text), want, text);
  });

  it("offers only what its levels and tools allow, with the reason otherwise", () => {
    const withHatchet = availableGoals(viewWith([["bronze_hatchet", 1]]), k);
    assert.equal(withHatchet.find((g) => g.id === "woodcutting:tree_normal")?.available, true);
    const noPick = withHatchet.find((g) => g.type === "mining")!;
    assert.equal(noPick.available, false);
    assert.match(noPick.reason!, /need/i);
    assert.equal(withHatchet.find((g) => g.id === "bank")?.available, false, "nothing to bank");
    const oak = withHatchet.find((g) => g.target === "tree_oak");
    if (oak) assert.equal(oak.available, false, "oak needs level 15");
  });

  it("a full pack is banked first; otherwise the lowest gathering skill it can train", () => {
    const full = viewWith([["bronze_hatchet", 1], ...Array.from({ length: 27 }, () => ["logs", 1] as [string, number])]);
    assert.equal(chooseGoal(full, k).type, "bank");
    const choice = chooseGoal(
      viewWith(
        [
          ["bronze_hatchet", 1],
          ["bronze_pickaxe", 1],
        ],
        { woodcutting: 10, mining: 2 },
      ),
      k,
    );
    assert.equal(choice.type, "mining");
  });

  it("a step orders a gather at the nearest node in view; nothing new while already at it", () => {
    const v = viewWith([["bronze_hatchet", 1]]);
    v.update({
      tick: 5,
      players: [{ id: "c_me", x: 100, z: 100, moving: false, health: 100, action: "" }],
      resources: [
        { id: "res:far", resourceId: "tree_normal", skill: "woodcutting", x: 120, z: 100, depleted: false },
        { id: "res:near", resourceId: "tree_normal", skill: "woodcutting", x: 103, z: 100, depleted: false },
        { id: "res:gone", resourceId: "tree_normal", skill: "woodcutting", x: 101, z: 100, depleted: true },
      ],
    });
    const mind = newMind();
    mind.queue.push({ kind: "gather", skill: "woodcutting" });
    assert.deepEqual(step(mind, v, k), [{ type: "player:action", data: { action: "gather", targetId: "res:near" } }]);
    v.update({ tick: 6, players: [{ id: "c_me", x: 102, z: 100, moving: true, health: 100, action: "woodcutting" }] });
    assert.deepEqual(step(mind, v, k), []);
    // Paused with no goal: nothing at all.
    const paused = newMind();
    paused.paused = true;
    assert.deepEqual(step(paused, v, k), []);
    assert.equal(paused.goal, null);
  });

  it("at a bank a banking step deposits everything but the tools, the coins and what cannot be traded", () => {
    const v = viewWith(
      [
        ["bronze_hatchet", 1],
        ["logs", 1],
        ["logs", 1],
        ["coins", 25],
        ["sealed_letter", 1],
        ["copper_ore", 3],
      ],
      {},
      { bank: [] },
    );
    const mind = newMind();
    mind.queue.push({ kind: "bank" });
    const orders = step(mind, v, k);
    assert.deepEqual(
      orders.map((o) => o.data).sort((a: any, b: any) => a.slot - b.slot),
      [
        { slot: 1, quantity: 2 },
        { slot: 5, quantity: 3 },
      ],
    );
  });
});
