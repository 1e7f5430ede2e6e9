import type { ServerMessage } from "../../../src/protocol/index.js";
import { SKILLS } from "../../../src/protocol/vocabulary.js";
import { byId, h } from "../dom.js";
import type { Game } from "../game.js";
import { iconUrl } from "../icons.js";

type Completed = ServerMessage<"quest:completed">;

/** The skills a "next goal" may suggest, in the order a newcomer meets them. */
const TRAINABLE = [
  "woodcutting",
  "fishing",
  "mining",
  "cooking",
  "firemaking",
  "attack",
  "strength",
  "defense",
  "smithing",
  "crafting",
  "prayer",
  "magic",
  "ranged",
];

const skillName = (skill: string) => skill.charAt(0).toUpperCase() + skill.slice(1);

/** Whether every quest of the world is done (`justDone` counted as done, before the journal says so). */
export function allQuestsDone(game: Game, justDone?: string): boolean {
  const open = game.me.quests.quests.filter((q) => q.questId !== justDone && q.status !== "completed");
  const later = (game.guidance?.notStarted() ?? []).filter((q) => q.questId !== justDone);
  return open.length === 0 && later.length === 0;
}

/** What to do once the quests are done: the lowest skill a newcomer can train, and the hiscores. */
export function nextGoal(game: Game): string {
  const levels = game.me.skills ?? {};
  const known = TRAINABLE.filter((s) => (SKILLS as readonly string[]).includes(s) && levels[s]);
  const skill = known.reduce<string | null>((best, s) => (best === null || levels[s]!.level < levels[best]!.level ? s : best), null);
  const train = skill ? `train your ${skillName(skill)} (level ${levels[skill]!.level} now)` : "train a skill";
  return `You have done every quest there is. Next goal: ${train}, and see where you stand on the hiscores.`;
}

let closeWindow: () => boolean = () => false;

/** Close the quest-complete window (Escape, keyboard.ts); false when it was not open. */
export function closeQuestComplete(): boolean {
  return closeWindow();
}

/**
 * The quest-complete window (`quest:completed`): the quest's name, its quest points, the rewards
 * (items named from the catalogue, xp per skill) and, after the last quest, a next goal. It waits
 * for the conversation that completed the quest to be closed, then opens over the map; its Close
 * button or Escape closes it. A second completion waits for the first window to close.
 */
export function installQuestComplete(game: Game) {
  const dialog = byId("dialog");
  const box = h("div", { id: "quest-complete", className: "quest-complete", hidden: true, role: "dialog", ariaLabel: "Quest complete" });
  byId("world").parentElement!.append(box);
  const pending: Completed[] = [];
  /** The completion the window shows now. */
  let shown: Completed | null = null;

  const talking = () => game.overlayIs("dialogue") && !dialog.hidden;

  const close = (): boolean => {
    if (box.hidden) return false;
    const hadFocus = box.contains(document.activeElement);
    box.hidden = true;
    box.replaceChildren();
    shown = null;
    if (hadFocus) byId("world").focus();
    showNext();
    return true;
  };
  closeWindow = close;

  const show = (q: Completed) => {
    const items = q.rewards.items.map((i) => {
      const item = game.item(i.itemId);
      return h(
        "li",
        { dataset: { item: i.itemId } },
        item ? h("img", { src: iconUrl(item), alt: "", width: 24, height: 24 }) : null,
        `${i.quantity.toLocaleString("en")} × ${game.itemName(i.itemId)}`,
      );
    });
    const xp = Object.entries(q.rewards.xp)
      .filter(([, n]) => n > 0)
      .map(([skill, n]) => h("li", { dataset: { skill } }, `${n.toLocaleString("en")} ${skillName(skill)} xp`));
    const last = allQuestsDone(game, q.questId);
    const parts: Array<HTMLElement | null> = [
      h("h3", {}, "Quest complete!"),
      h("p", { className: "quest-complete-name" }, `You have completed ${q.name}.`),
      h("p", { className: "quest-points" }, `+${q.questPoints} quest point${q.questPoints === 1 ? "" : "s"}`),
      items.length || xp.length
        ? h("div", { className: "rewards" }, h("b", {}, "Rewards"), h("ul", {}, ...items, ...xp))
        : h("p", { className: "rewards" }, "No other reward."),
      last ? h("p", { className: "next-goal" }, nextGoal(game)) : null,
      h(
        "div",
        { className: "actions" },
        last ? h("button", { textContent: "Hiscores", onclick: () => (close(), game.hiscores()) }) : null,
        h("button", { className: "close", textContent: "Close", onclick: () => void close() }),
      ),
    ];
    box.replaceChildren(...parts.filter((p) => p !== null));
    box.hidden = false;
    shown = q;
    // The keyboard's player can close it at once (Enter); someone typing keeps the field.
    const typing = document.activeElement instanceof HTMLInputElement || document.activeElement instanceof HTMLTextAreaElement;
    if (!typing) box.querySelector<HTMLButtonElement>("button.close")?.focus();
  };

  function showNext() {
    if (!box.hidden || talking()) return;
    const next = pending.shift();
    if (next) show(next);
  }

  game.net.on("quest:completed", (q) => {
    pending.push(q);
    showNext();
  });
  // The conversation closed (or gave way to another window): the window waiting opens. One opening
  // (the completion told before the npc's words) puts the window back until it is closed.
  new MutationObserver(() => {
    if (talking() && shown) {
      pending.unshift(shown);
      box.hidden = true;
      shown = null;
    }
    showNext();
  }).observe(dialog, { attributes: true, attributeFilter: ["hidden", "data-owner"] });
}
