import { h } from "../dom.js";
import type { Panel } from "./panel.js";

const STATUS: Record<string, string> = {
  not_started: "not started",
  in_progress: "in progress",
  ready_to_complete: "ready to hand in",
  completed: "completed",
};

/** The quest journal from `player:sync`. */
export const questsPanel: Panel = {
  name: "Quests",
  render(game) {
    const journal = game.me.quests;
    return h(
      "div",
      {},
      h("h3", {}, `Quest points: ${journal.questPoints}`),
      journal.quests.length === 0 ? h("p", {}, "No quests yet: talk to the townsfolk.") : null,
      ...journal.quests.map((q) =>
        h(
          "div",
          { dataset: { quest: q.questId } },
          h("b", {}, q.name),
          ` — ${STATUS[q.status] ?? q.status}`,
          q.stageDescription ? h("div", {}, q.stageDescription + (q.needed > 0 ? ` (${q.count}/${q.needed})` : "")) : null,
        ),
      ),
    );
  },
};
