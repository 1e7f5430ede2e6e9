import assert from "node:assert/strict";
import { answer, entryNodeId, nodeView, type DialogueState } from "../../src/game/dialogue.js";
import { parseEffect } from "../../src/manifests/dialogue.js";
import type { DialogueDef } from "../../src/manifests/dialogue.js";
import { code } from "./fixtures.js";

const tree: DialogueDef = {
  entryNodeId: "greeting",
  questOverrides: { letter: { in_progress: "reminder", deliver: "where", completed: "thanks" } },
  nodes: new Map(
    [
      {
        id: "greeting",
        text: "Hello.",
        responses: [
          { text: "Bank", nextNodeId: "bank", effect: "openBank" },
          { text: "Quest", nextNodeId: "offer", effect: "startQuest:letter" },
          { text: "Bye" },
        ],
      },
      { id: "bank", text: "Here.", responses: [] },
      { id: "offer", text: "Take it.", responses: [] },
      { id: "reminder", text: "Go on.", responses: [] },
      { id: "where", text: "To the bank.", responses: [] },
      { id: "thanks", text: "Thank you.", responses: [], effect: "completeQuest:letter" },
    ].map((n) => [n.id, n]),
  ),
};

describe("dialogue rules", () => {
  const at = (nodeId: string): DialogueState => ({ npcInstanceId: "npc_1", npcId: "warden", nodeId });

  it("enters at the override for the stage in force, else for the status, else at the entry node", () => {
    assert.equal(
      entryNodeId(tree, () => ({ status: "not_started" })),
      "greeting",
    );
    assert.equal(
      entryNodeId(tree, () => ({ status: "in_progress", stageId: "deliver" })),
      "where",
    );
    assert.equal(
      entryNodeId(tree, () => ({ status: "in_progress", stageId: "return" })),
      "reminder",
    );
    assert.equal(
      entryNodeId(tree, () => ({ status: "completed" })),
      "thanks",
    );
  });

  it("an answer leads to its next node with its effect; no next node ends the dialogue", () => {
    assert.deepEqual(answer(tree, at("greeting"), 0), { effect: "openBank", next: tree.nodes.get("bank") });
    assert.deepEqual(answer(tree, at("greeting"), 2), {});
    assert.deepEqual(parseEffect("startQuest:letter"), { verb: "startQuest", arg: "letter" });
    assert.deepEqual(parseEffect("openBank"), { verb: "openBank" });
  });

  it("only an index the node offered is accepted", () => {
    for (const bad of [-1, 3, 1.5, Number.NaN, 2 ** 40]) assert.throws(() => answer(tree, at("greeting"), bad), code("INVALID_RESPONSE"));
    assert.throws(() => answer(tree, at("bank"), 0), code("INVALID_RESPONSE"));
    assert.throws(() => answer(tree, at("nowhere"), 0), code("NOT_IN_DIALOGUE"));
  });

  it("the client sees the text and the responses by index, nothing of where they lead", () => {
    const view = nodeView("npc_1", "Warden Holt", tree.nodes.get("greeting")!);
    assert.deepEqual(view.responses, [
      { index: 0, text: "Bank" },
      { index: 1, text: "Quest" },
      { index: 2, text: "Bye" },
    ]);
    assert.ok(!JSON.stringify(view).includes("startQuest"));
  });
});
