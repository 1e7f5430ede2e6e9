import assert from "node:assert/strict";
import type { QuestDef } from "../../src/manifests/index.js";
import { checkCanStart, completeQuest, questPointsOf, recordDeed, startQuest, statusOf, talkedTo, type QuestJournal } from "../../src/game/quests.js";
import { GameError } from "../../src/game/types.js";
import { code } from "./fixtures.js";

const quest = (id: string, extra: Partial<QuestDef> = {}): QuestDef => ({
  id,
  name: id,
  questPoints: 1,
  replayable: false,
  requirements: { quests: [], skills: {}, items: [] },
  startNpc: "captain",
  stages: [
    { id: "start", type: "dialogue", description: "", npcId: "captain", count: 1 },
    { id: "kill", type: "kill", description: "", target: "goblin", count: 3 },
    { id: "fires", type: "interact", description: "", target: "fire", count: 2 },
    { id: "return", type: "dialogue", description: "", npcId: "captain", count: 1 },
  ],
  startItems: [],
  rewardItems: [{ itemId: "xp_lamp", quantity: 1 }],
  rewardXp: { attack: 100 },
  raw: {},
  ...extra,
});

/** Carries nothing. */
const none = () => 0;

const who = (levels: Record<string, number> = {}, held: Record<string, number> = {}) => ({ levels, holds: (id: string) => held[id] ?? 0 });

describe("quest rules", () => {
  const slayer = quest("slayer");
  const letter = quest("letter", {
    stages: [
      { id: "start", type: "dialogue", description: "", npcId: "captain", count: 1 },
      { id: "deliver", type: "dialogue", description: "", npcId: "clerk", count: 1 },
      { id: "return", type: "dialogue", description: "", npcId: "captain", count: 1 },
    ],
  });
  const quests = new Map([slayer, letter].map((q) => [q.id, q]));
  let journal: QuestJournal;
  beforeEach(() => {
    journal = new Map();
  });

  it("starting passes the first stage when it is talking to the start npc", () => {
    assert.equal(statusOf(slayer, journal.get("slayer")), "not_started");
    assert.deepEqual(startQuest(journal, slayer), [{ kind: "started", questId: "slayer", stage: 1 }]);
    assert.equal(statusOf(slayer, journal.get("slayer")), "in_progress");
  });

  it("counts only the stage in force, and a full count passes it", () => {
    startQuest(journal, slayer);
    // Fires lit before the kill stage do not count.
    assert.deepEqual(recordDeed(quests, journal, { type: "interact", target: "fire", count: 1 }), []);
    assert.equal(recordDeed(quests, journal, { type: "kill", target: "cow" }).length, 0);
    recordDeed(quests, journal, { type: "kill", target: "goblin" });
    recordDeed(quests, journal, { type: "kill", target: "goblin" });
    const events = recordDeed(quests, journal, { type: "kill", target: "goblin" });
    assert.deepEqual(events, [
      { kind: "progress", questId: "slayer", stage: 1, count: 3, needed: 3 },
      { kind: "stage", questId: "slayer", stage: 2 },
    ]);
    // A kill past the count counts for nothing now.
    assert.deepEqual(recordDeed(quests, journal, { type: "kill", target: "goblin" }), []);
    recordDeed(quests, journal, { type: "interact", target: "fire", count: 5 });
    assert.equal(journal.get("slayer")!.stage, 3);
    assert.equal(statusOf(slayer, journal.get("slayer")), "ready_to_complete");
  });

  it("a dialogue stage with another npc is passed by talking to it; the last one only by completing", () => {
    startQuest(journal, letter);
    assert.deepEqual(talkedTo(quests, journal, "captain", none).events, [], "talking to the start npc again passes nothing");
    assert.deepEqual(talkedTo(quests, journal, "clerk", none).events, [{ kind: "stage", questId: "letter", stage: 2 }]);
    assert.equal(statusOf(letter, journal.get("letter")), "ready_to_complete");
    assert.deepEqual(talkedTo(quests, journal, "captain", none).events, []);
    const done = completeQuest(journal, letter, none);
    assert.deepEqual(done.items, [{ itemId: "xp_lamp", quantity: 1 }]);
    assert.deepEqual(done.xp, { attack: 100 });
    assert.equal(statusOf(letter, journal.get("letter")), "completed");
    assert.equal(questPointsOf(quests, journal), 1);
  });

  it("refuses completing early, starting twice, restarting a finished quest that is not replayable", () => {
    startQuest(journal, slayer);
    assert.throws(() => completeQuest(journal, slayer, none), code("QUEST_NOT_READY"));
    assert.throws(() => checkCanStart(quests, journal, slayer, who()), code("QUEST_IN_PROGRESS"));
    startQuest(journal, letter);
    talkedTo(quests, journal, "clerk", none);
    completeQuest(journal, letter, none);
    assert.throws(() => checkCanStart(quests, journal, letter, who()), code("QUEST_COMPLETED"));
    const again = { ...letter, replayable: true };
    checkCanStart(new Map([["letter", again]]), journal, again, who());
    startQuest(journal, again);
    assert.equal(journal.get("letter")!.completions, 1, "a replay keeps the count of completions");
    assert.equal(questPointsOf(quests, journal), 1, "quest points count a quest once");
  });

  it("requirements: quests completed, skill levels, items held", () => {
    const hard = quest("hard", { requirements: { quests: ["letter"], skills: { mining: 10 }, items: [{ itemId: "pickaxe", quantity: 1 }] } });
    const all = new Map([...quests, ["hard", hard]]);
    assert.throws(() => checkCanStart(all, journal, hard, who({ mining: 10 }, { pickaxe: 1 })), code("QUEST_REQUIREMENTS"));
    startQuest(journal, letter);
    talkedTo(all, journal, "clerk", none);
    completeQuest(journal, letter, none);
    assert.throws(() => checkCanStart(all, journal, hard, who({ mining: 9 }, { pickaxe: 1 })), code("QUEST_REQUIREMENTS"));
    assert.throws(() => checkCanStart(all, journal, hard, who({ mining: 10 })), code("QUEST_REQUIREMENTS"));
    checkCanStart(all, journal, hard, who({ mining: 10 }, { pickaxe: 1 }));
  });

  it("a hand-over: the stage passes only with every item carried, and says what to take; the last stage's is asked at completion", () => {
    const sealed = quest("sealed", {
      stages: [
        { id: "start", type: "dialogue", description: "", npcId: "captain", count: 1 },
        { id: "deliver", type: "dialogue", description: "", npcId: "clerk", count: 1, handOver: [{ itemId: "letter", quantity: 1 }] },
        {
          id: "return",
          type: "dialogue",
          description: "",
          npcId: "captain",
          count: 1,
          handOver: [
            { itemId: "logs", quantity: 3 },
            { itemId: "receipt", quantity: 1 },
          ],
        },
      ],
    });
    const all = new Map([["sealed", sealed]]);
    startQuest(journal, sealed);
    const lacking = talkedTo(all, journal, "clerk", none);
    assert.deepEqual(lacking, { events: [], handed: [], missing: [{ questId: "sealed", items: [{ itemId: "letter", quantity: 1 }] }] });
    assert.equal(journal.get("sealed")!.stage, 1, "held back");
    const passed = talkedTo(all, journal, "clerk", who({}, { letter: 1 }).holds);
    assert.deepEqual(passed.handed, [{ questId: "sealed", items: [{ itemId: "letter", quantity: 1 }] }]);
    assert.equal(journal.get("sealed")!.stage, 2);
    // The last stage is passed by completing, never by talking; without its hand-over, talking says what is missing.
    assert.deepEqual(talkedTo(all, journal, "captain", none), {
      events: [],
      handed: [],
      missing: [
        {
          questId: "sealed",
          items: [
            { itemId: "logs", quantity: 3 },
            { itemId: "receipt", quantity: 1 },
          ],
        },
      ],
    });
    assert.deepEqual(talkedTo(all, journal, "captain", who({}, { logs: 3, receipt: 1 }).holds), { events: [], handed: [], missing: [] });
    // Two logs of three, and no receipt: refused, naming both, and nothing changes.
    const err = (() => {
      try {
        completeQuest(journal, sealed, who({}, { logs: 2 }).holds, (id) => id.toUpperCase());
      } catch (e) {
        return e as GameError;
      }
    })();
    assert.equal(err?.code, "QUEST_ITEMS_MISSING");
    assert.match(err!.message, /3 x LOGS, 1 x RECEIPT/);
    assert.equal(statusOf(sealed, journal.get("sealed")), "ready_to_complete");
    const done = completeQuest(journal, sealed, who({}, { logs: 5, receipt: 1 }).holds);
    assert.deepEqual(done.handed, [
      { itemId: "logs", quantity: 3 },
      { itemId: "receipt", quantity: 1 },
    ]);
    assert.equal(statusOf(sealed, journal.get("sealed")), "completed");
  });
});
