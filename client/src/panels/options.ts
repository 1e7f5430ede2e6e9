import { h } from "../dom.js";
import { nowPlayingText } from "../music.js";
import { settings, setSettings, ZOOMS } from "../settings.js";
import type { Panel } from "./panel.js";

/** Settings, kept in the browser: names over heads, xp drops, roofs, running, sound, music, zoom, the newcomer's hint; and logging out. */
export const optionsPanel: Panel = {
  name: "Options",
  render(game) {
    const check = (label: string, key: "names" | "xpDrops" | "roofs" | "run") =>
      h(
        "label",
        { className: "option" },
        h("input", { type: "checkbox", checked: settings[key], onchange: (ev: Event) => setSettings({ [key]: (ev.target as HTMLInputElement).checked }) }),
        ` ${label}`,
      );
    const zoom = h(
      "select",
      { onchange: () => setSettings({ zoom: Number(zoom.value) }) },
      ...ZOOMS.map((z) => h("option", { value: String(z), selected: z === settings.zoom }, `${z} px a tile`)),
    );
    return h(
      "div",
      {},
      h("h3", {}, "Options"),
      check("Names over heads", "names"),
      check("Experience drops", "xpDrops"),
      check("Roofs", "roofs"),
      check("Run", "run"),
      h(
        "label",
        { className: "option" },
        h("input", {
          type: "checkbox",
          id: "sound-on",
          checked: !settings.muted,
          onchange: (ev: Event) => setSettings({ muted: !(ev.target as HTMLInputElement).checked }),
        }),
        " Sound effects",
      ),
      h(
        "label",
        { className: "option" },
        h("input", {
          type: "checkbox",
          id: "music-on",
          checked: settings.music,
          onchange: (ev: Event) => setSettings({ music: (ev.target as HTMLInputElement).checked }),
        }),
        " Music",
        h("span", { id: "now-playing", className: "now-playing" }, nowPlayingText()),
      ),
      h("label", { className: "option" }, "Zoom ", zoom),
      h(
        "div",
        { className: "actions" },
        h("button", { textContent: "Show the newcomer's hint again", onclick: () => (setSettings({ hintSeen: false }), game.changed()) }),
      ),
      h("p", {}, "Settings are kept in this browser."),
      h("div", { className: "actions" }, h("button", { className: "danger", textContent: "Log out", onclick: () => void game.logout() })),
    );
  },
};
