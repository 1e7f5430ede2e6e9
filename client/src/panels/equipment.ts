import { EQUIPMENT_SLOTS } from "../../../src/protocol/vocabulary.js";
import { h } from "../dom.js";
import type { Game } from "../game.js";
import { iconUrl } from "../icons.js";
import type { Panel } from "./panel.js";

function iconOf(game: Game, itemId: string) {
  const item = game.item(itemId);
  return item ? h("img", { src: iconUrl(item), alt: "", width: 20, height: 20 }) : null;
}

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
          ? h(
              "button",
              {
                className: "worn",
                title: `Take off ${game.itemName(worn.itemId)}`,
                onclick: () => game.net.send("inventory:use", { slot: 0, action: "unequip", targetId: slot }),
              },
              iconOf(game, worn.itemId),
              `${game.itemName(worn.itemId)}${worn.quantity > 1 ? ` ×${worn.quantity}` : ""}`,
            )
          : h("span", {}, "—"),
      );
    });
    return h("div", {}, h("h3", {}, "Worn equipment"), h("div", { className: "rows" }, ...rows));
  },
};
