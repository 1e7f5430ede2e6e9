import { PRODUCTION_KINDS, type ProductionKind } from "../../../src/protocol/vocabulary.js";
import { h } from "../dom.js";
import type { Panel } from "./panel.js";

let kind: ProductionKind = "smelting";

/** Production: a recipe of a kind, made at the station chosen last (or the one the player stands by). */
export const productionPanel: Panel = {
  name: "Make",
  render(game) {
    const recipes = game.catalogue.recipes[kind] ?? [];
    const select = h(
      "select",
      { onchange: () => ((kind = select.value as ProductionKind), game.changed()) },
      ...PRODUCTION_KINDS.map((k) => h("option", { value: k, selected: k === kind }, k)),
    );
    const count = h("input", { type: "number", min: "1", value: "1", size: 4 });
    const make = (recipeId: string, all: boolean) => {
      const n = Number(count.value);
      game.net.send("production:make", {
        kind,
        recipeId,
        count: all ? "all" : Number.isInteger(n) && n > 0 ? n : 1,
        ...(game.station ? { stationId: game.station.id } : {}),
      });
    };
    return h(
      "div",
      {},
      h("h3", {}, `Make${game.station ? ` at ${game.station.name}` : ""}`),
      h("div", { className: "actions" }, select, "count", count),
      h(
        "div",
        { className: "rows" },
        ...recipes.map((r) =>
          h(
            "div",
            { dataset: { recipe: r.id } },
            h(
              "span",
              { title: `${r.xp} ${r.skill} xp` },
              `${r.outputs.map((o) => game.itemName(o.itemId)).join(", ")} (${r.skill} ${r.level}) ← ${r.inputs.map((i) => `${i.quantity} ${game.itemName(i.itemId)}`).join(", ")}`,
            ),
            h(
              "span",
              {},
              h("button", { textContent: "Make", onclick: () => make(r.id, false) }),
              h("button", { textContent: "All", onclick: () => make(r.id, true) }),
            ),
          ),
        ),
      ),
    );
  },
};
