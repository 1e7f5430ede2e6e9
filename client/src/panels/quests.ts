import type { QuestView } from "../../../src/protocol/index.js";
import { h } from "../dom.js";
import type { Panel } from "./panel.js";
import { allQuestsDone, nextGoal } from "../windows/questComplete.js";

const STATUS: Record<string, string> = {
  not_started: "not started",
  in_progress: "in progress",
  ready_to_complete: "ready to hand in",
  completed: "completed",
};

/**
 * The quest journal: every quest started (from `player:sync`) with what its stage asks and where
 * (the marker on the map and the minimap points there), and the quests not started yet with the
 * npc who gives them.
 */
export const questsPanel: Panel = {
  name: "Quests",
  render(game) {
    const journal = game.me.quests;
    const guidance = game.guidance;
    const tracked = guidance?.tracked() ?? null;
    const entry = (q: QuestView) => {
      const target = q.target && guidance ? guidance.describe(q, q.target) : null;
      const followed = tracked?.quest.questId === q.questId;
      return h(
        "div",
        { className: `quest ${q.status}${followed ? " followed" : ""}`, dataset: { quest: q.questId, status: q.status } },
        h("div", { className: "quest-name" }, h("b", {}, q.name), h("span", { className: "quest-status" }, STATUS[q.status] ?? q.status)),
        q.stageDescription ? h("div", { className: "stage" }, q.stageDescription + (q.needed > 0 ? ` (${q.count}/${q.needed})` : "")) : null,
        target && q.status !== "completed"
          ? h("div", { className: "target" }, followed ? "➜ " : "", target, followed ? " — follow the yellow arrow" : "")
          : null,
      );
    };
    const later = guidance?.notStarted() ?? [];
    return h(
      "div",
      {},
      h("h3", {}, `Quest points: ${journal.questPoints}`),
      journal.quests.length === 0 && later.length === 0 ? h("p", {}, "No quests yet: talk to the townsfolk.") : null,
      ...journal.quests.map(entry),
      later.length ? h("h3", {}, "Not started") : null,
      ...later.map(entry),
      journal.quests.length > 0 && allQuestsDone(game) ? h("p", { className: "next-goal" }, nextGoal(game)) : null,
    );
  },
};
