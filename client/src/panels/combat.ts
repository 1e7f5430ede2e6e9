import { COMBAT_STYLES } from "../../../src/protocol/vocabulary.js";
import { h } from "../dom.js";
import type { Panel } from "./panel.js";

/** Combat styles, auto-retaliate, the spellbook (cast once at the next target clicked, or autocast with a staff), the home teleport. */
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
    const retaliating = me.vars?.autoRetaliate !== false;
    const retaliate = h("button", {
      className: retaliating ? "on" : "",
      textContent: `Auto retaliate: ${retaliating ? "on" : "off"}`,
      title: "Fight back when something attacks you while you stand idle",
      onclick: () => game.net.send("player:setting", { name: "autoRetaliate", value: !retaliating }),
    });
    return h(
      "div",
      {},
      h("h3", {}, "Combat style"),
      h("div", { className: "actions" }, ...styles),
      h("div", { className: "actions" }, retaliate),
      h("h3", {}, `Spells (magic ${magic})${me.autocast ? ` · autocasting ${me.autocast}` : ""}`),
      h("div", { className: "rows" }, ...spells),
      homeTeleport(game),
      h("button", { textContent: "Stop", onclick: () => game.net.send("player:action", { action: "stop" }) }),
    );
  },
};

/** The home teleport: cast it, or when it may be cast again (player:sync's vars). */
function homeTeleport(game: Parameters<Panel["render"]>[0]) {
  const vars = game.me.vars ?? {};
  const readyAt = Number(vars.homeTeleportReadyAt ?? 0);
  const casting = Number(vars.homeTeleportAtTick ?? 0) > 0;
  const waiting = readyAt > Date.now();
  const label = casting
    ? "Home teleport: casting…"
    : waiting
      ? `Home teleport: ready at ${new Date(readyAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`
      : "Home teleport";
  return h(
    "div",
    { className: "actions" },
    h("button", {
      textContent: label,
      disabled: casting || waiting,
      title: "About 10 seconds to cast, then you stand at the spawn; once every 30 minutes",
      onclick: () => game.net.send("player:homeTeleport", {}),
    }),
  );
}
