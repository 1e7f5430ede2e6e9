import { COMBAT_STYLES } from "../../../src/protocol/vocabulary.js";
import { h } from "../dom.js";
import type { Panel } from "./panel.js";

/** Combat styles, the spellbook (cast once at the next target clicked, or autocast with a staff). */
export const combatPanel: Panel = {
  name: "Combat",
  render(game) {
    const me = game.me;
    const magic = me.skills.magic?.level ?? 1;
    const styles = COMBAT_STYLES.map((style) =>
      h("button", {
        className: me.combatStyle === style ? "on" : "",
        textContent: style,
        onclick: () => game.net.send("player:action", { action: "style", style }),
      }),
    );
    const spells = game.catalogue.spells.map((spell) =>
      h(
        "div",
        { dataset: { spell: spell.id } },
        h("span", { title: spell.runes.map((r) => `${r.quantity} ${game.itemName(r.runeId)}`).join(", ") }, `${spell.name} (${spell.level})`),
        h(
          "span",
          {},
          h("button", {
            textContent: "Cast",
            disabled: magic < spell.level,
            onclick: () => {
              game.pendingSpell = { id: spell.id, name: spell.name };
              game.log(`Click a target to cast ${spell.name} on`, "system");
            },
          }),
          h("button", {
            className: me.autocast === spell.id ? "on" : "",
            textContent: "Auto",
            disabled: magic < spell.level,
            onclick: () => game.net.send("combat:autocast", { spellId: me.autocast === spell.id ? null : spell.id }),
          }),
        ),
      ),
    );
    return h(
      "div",
      {},
      h("h3", {}, "Combat style"),
      h("div", { className: "actions" }, ...styles),
      h("h3", {}, `Spells (magic ${magic})${me.autocast ? ` · autocasting ${me.autocast}` : ""}`),
      h("div", { className: "rows" }, ...spells),
      h("button", { textContent: "Stop", onclick: () => game.net.send("player:action", { action: "stop" }) }),
    );
  },
};
