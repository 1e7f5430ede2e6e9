import { byId, h } from "./dom.js";
import type { Game } from "./game.js";
import { settings, setSettings } from "./settings.js";
import { pointerWords } from "./touch.js";

/**
 * The first visit's hint: until a quest is started (or the hint is put away), a box over the map
 * names the first quest's giver and says to follow the yellow arrow (on the map and the minimap)
 * and click (tap) them. Whether it was read is kept in the browser.
 */
export function installHint(game: Game) {
  const box = byId("hint");
  const show = () => {
    const started = game.me.quests.quests.length > 0;
    const next = game.guidance?.tracked();
    if (settings.hintSeen || started || !next || next.target.type !== "talk") {
      box.hidden = true;
      return;
    }
    const giver = game.npc(next.target.id)?.name ?? next.target.id;
    // A touch screen says tap and long press (touch.ts).
    const w = pointerWords();
    box.replaceChildren(
      h("b", {}, `Welcome to the world, ${game.me.name}!`),
      h(
        "p",
        {},
        `${giver} has an errand for a newcomer: "${next.quest.name}". Follow the yellow arrow on the map and the minimap, and ${w.click} ${giver} to talk.`,
      ),
      h(
        "p",
        { className: "small" },
        `${w.Click} the ground to walk, ${w.click} the minimap to walk further; ${w.rightClick} anything for all you can do with it${w.click === "tap" ? "; pinch to zoom" : ""}.`,
      ),
      h("button", { textContent: "Got it", onclick: () => (setSettings({ hintSeen: true }), show()) }),
    );
    box.hidden = false;
  };
  game.onChange(show);
  game.guidance?.onChange(show);
  game.net.on("quest:started", () => setSettings({ hintSeen: true }));
  show();
}
