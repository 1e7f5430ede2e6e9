import { h } from "../dom.js";
import type { Panel } from "./panel.js";

/** Prayers: on and off, with the points left. */
export const prayerPanel: Panel = {
  name: "Prayer",
  render(game) {
    const me = game.me;
    const level = me.skills.prayer?.level ?? 1;
    const active = new Set(me.prayer.active);
    return h(
      "div",
      {},
      h("h3", {}, `Prayer points ${me.prayer.points}/${me.prayer.max}`),
      h(
        "div",
        { className: "rows" },
        ...game.catalogue.prayers.map((p) =>
          h(
            "div",
            { dataset: { prayer: p.id } },
            h("span", {}, `${p.name} (${p.level})`),
            h("button", {
              className: active.has(p.id) ? "on" : "",
              textContent: active.has(p.id) ? "On" : "Off",
              disabled: level < p.level,
              onclick: () => game.net.send("prayer:toggle", { prayerId: p.id, on: !active.has(p.id) }),
            }),
          ),
        ),
      ),
      h("p", {}, "Recharge at an altar; bury bones for prayer experience."),
    );
  },
};
