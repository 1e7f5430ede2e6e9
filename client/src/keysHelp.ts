import { byId, h } from "./dom.js";

/** The keys of the web client (keyboard.ts), as the help lists them. */
export const KEYS: ReadonlyArray<readonly [string, string]> = [
  ["Arrow keys or W A S D", "walk a tile that way (hold to keep walking; two at once walk diagonally)"],
  ["E or Space", "act on the quest's target if it is on the map (the yellow arrow), else on the nearest thing: talk, attack, chop, take…"],
  ["M", "the menu of that target (everything you can do with it)"],
  ["1 – 9", "answer the conversation (its answers in order)"],
  ["Space or Enter", "continue a conversation that has one answer"],
  ["[ and ]", "the side tab before or after (Pack, Worn, Skills, Quests, Bank, …)"],
  ["Tab", "move between the map, the tabs, the pack's slots and the chat; Enter or Space on a slot opens its menu"],
  ["↑ ↓ in a menu", "choose; Enter picks it"],
  [
    "Escape",
    "close what is open, topmost first: the menu, this help, the quest-complete window, the conversation, the store, the bank; in the chat box, back to the map",
  ],
  ["?", "this help"],
];

/**
 * The keys' help: a small box over the map listing them, opened with "?" or the "?" button under the
 * zoom buttons, closed with Escape, "?" again or its Close button.
 */
export class KeysHelp {
  private readonly box: HTMLElement;
  private returnTo: HTMLElement | null = null;

  constructor() {
    const close = h("button", { textContent: "Close", onclick: () => this.close() });
    this.box = h(
      "div",
      { id: "keys-help", className: "keys-help", hidden: true, role: "dialog", ariaLabel: "Keys" },
      h("h3", {}, "Keys"),
      h("dl", {}, ...KEYS.flatMap(([key, what]) => [h("dt", {}, key), h("dd", {}, what)])),
      h("p", { className: "small" }, "Keys do nothing while you type in the chat box or another field (Enter sends, Escape goes back to the map)."),
      close,
    );
    const stage = byId("world").parentElement!;
    stage.append(this.box);
    byId("zoom-out").parentElement!.append(h("button", { id: "keys-help-button", textContent: "?", title: "Keys (?)", onclick: () => this.toggle() }));
  }

  isOpen(): boolean {
    return !this.box.hidden;
  }

  toggle() {
    if (this.isOpen()) this.close();
    else this.open();
  }

  open() {
    this.returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    this.box.hidden = false;
  }

  /** Close it; false when it was not open. */
  close(): boolean {
    if (!this.isOpen()) return false;
    this.box.hidden = true;
    (this.returnTo?.isConnected ? this.returnTo : byId("world")).focus();
    return true;
  }
}
