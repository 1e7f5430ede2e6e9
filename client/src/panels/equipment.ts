import { EQUIPMENT_SLOTS } from "../../../src/protocol/vocabulary.js";
import { h } from "../dom.js";
import type { Panel } from "./panel.js";

/** What the player wears, slot by slot; a click takes it off. */
export const equipmentPanel: Panel = {
  name: "Worn",
  render(game) {
    const rows = EQUIPMENT_SLOTS.map((slot) => {
      const worn = game.me.equipment[slot];
      return h(
        "div",
        { dataset: { equip: slot } },
        h("span", {}, slot),
        worn
          ? h("button", {
              textContent: `${game.itemName(worn.itemId)}${worn.quantity > 1 ? ` ×${worn.quantity}` : ""}`,
              title: "Take off",
              onclick: () => game.net.send("inventory:use", { slot: 0, action: "unequip", targetId: slot }),
            })
          : h("span", {}, "—"),
      );
    });
    return h("div", {}, h("h3", {}, "Worn equipment"), h("div", { className: "rows" }, ...rows));
  },
};
