import { SKILLS } from "../../../src/protocol/vocabulary.js";
import { h } from "../dom.js";
import type { Panel } from "./panel.js";

/** Every skill's level and experience, with life and prayer points. */
export const skillsPanel: Panel = {
  name: "Skills",
  render(game) {
    const me = game.me;
    const total = SKILLS.reduce((sum, s) => sum + (me.skills[s]?.level ?? 1), 0);
    return h(
      "div",
      {},
      h("h3", {}, `${me.name}: combat level ${me.combatLevel}, total level ${total}`),
      h("div", {}, `Life points ${me.health}/${me.maxHealth} · prayer ${me.prayer.points}/${me.prayer.max}`),
      h("button", { type: "button", className: "open-hiscores", textContent: "Hiscores", onclick: () => game.hiscores() }),
      h(
        "div",
        { className: "rows" },
        ...SKILLS.map((s) =>
          h(
            "div",
            { dataset: { skill: s } },
            h("span", {}, s),
            h("span", { className: "level" }, `level ${me.skills[s]?.level ?? 1}`),
            h("span", { className: "xp" }, `${Math.floor(me.skills[s]?.xp ?? 0)} xp`),
          ),
        ),
      ),
    );
  },
};
