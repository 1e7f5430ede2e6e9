import assert from "node:assert/strict";
import { changeOfParts, holdingsChange, holdingsOf, ledgerRows, type Held } from "../../src/game/ledger.js";

const sum = (rows: { itemId: string; delta: number }[], itemId: string) => rows.filter((r) => r.itemId === itemId).reduce((a, r) => a + r.delta, 0);

describe("the item ledger's rules (src/game/ledger.ts)", () => {
  it("holdings count pack, worn and bank together: moving an item between them is no change", () => {
    const packed = holdingsOf({
      inventory: [{ itemId: "coins", quantity: 5 }, null, { itemId: "logs", quantity: 1 }],
      equipment: {},
      bank: [{ itemId: "coins", quantity: 10 }],
    });
    assert.deepEqual(
      [...packed],
      [
        ["coins", 15],
        ["logs", 1],
      ],
    );
    const worn = holdingsOf({ inventory: [{ itemId: "coins", quantity: 15 }], equipment: { weapon: { itemId: "logs", quantity: 1 } }, bank: [] });
    assert.deepEqual(holdingsChange(packed, worn), new Map());
  });

  it("a change lists what grew and what went, and nothing else", () => {
    const before = new Map([
      ["coins", 10],
      ["logs", 2],
      ["ore", 1],
    ]);
    const after = new Map([
      ["coins", 7],
      ["logs", 2],
      ["bar", 1],
    ]);
    assert.deepEqual(
      holdingsChange(before, after),
      new Map([
        ["coins", -3],
        ["bar", 1],
        ["ore", -1],
      ]),
    );
  });

  it("the change counted over the replaced parts alone is the change of the whole holdings", () => {
    const bank = [
      { itemId: "coins", quantity: 100 },
      { itemId: "ore", quantity: 3 },
    ];
    const helm = { itemId: "helm", quantity: 1 };
    const before: Held = {
      inventory: [{ itemId: "coins", quantity: 5 }, { itemId: "logs", quantity: 1 }, null],
      equipment: { helmet: helm, arrows: { itemId: "arrow", quantity: 10 } },
      bank,
    };
    const cases: Array<[string, Held]> = [
      ["nothing replaced", { ...before, equipment: { ...before.equipment } }],
      ["a log made into a bow, the bank untouched", { ...before, inventory: [{ itemId: "coins", quantity: 5 }, { itemId: "bow", quantity: 1 }, null] }],
      ["coins deposited", { ...before, inventory: [null, { itemId: "logs", quantity: 1 }, null], bank: [{ itemId: "coins", quantity: 105 }, bank[1]!] }],
      [
        "an arrow shot, the helm taken off into the pack",
        { inventory: [...before.inventory.slice(0, 2), helm], equipment: { arrows: { itemId: "arrow", quantity: 9 } }, bank },
      ],
    ];
    for (const [what, after] of cases) {
      assert.deepEqual(changeOfParts(before, after), holdingsChange(holdingsOf(before), holdingsOf(after)), what);
    }
    assert.deepEqual([...changeOfParts(before, cases[3]![1])], [["arrow", -1]]);
  });

  it("rows tell a change by its causes, merged; what they leave unexplained is one unattributed row per item", () => {
    const change = new Map([
      ["logs", 3],
      ["coins", -5],
    ]);
    const rows = ledgerRows(change, [
      { itemId: "logs", delta: 1, cause: "gathered", ref: "tree_1" },
      { itemId: "logs", delta: 1, cause: "gathered", ref: "tree_1" },
      { itemId: "coins", delta: -5, cause: "bought", ref: "d_1" },
    ]);
    assert.deepEqual(rows, [
      { itemId: "logs", delta: 2, cause: "gathered", ref: "tree_1" },
      { itemId: "coins", delta: -5, cause: "bought", ref: "d_1" },
      { itemId: "logs", delta: 1, cause: "unattributed" },
    ]);
    for (const item of ["logs", "coins"]) assert.equal(sum(rows, item), change.get(item));
  });

  it("events that cancel out within a save still sum to the change (dropped and picked up again)", () => {
    const rows = ledgerRows(new Map(), [
      { itemId: "bones", delta: -1, cause: "dropped", ref: "g_1" },
      { itemId: "bones", delta: 1, cause: "picked_up", ref: "g_1" },
    ]);
    assert.equal(sum(rows, "bones"), 0);
    assert.ok(rows.every((r) => r.cause !== "unattributed"));
  });
});
