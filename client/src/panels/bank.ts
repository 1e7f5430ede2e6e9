import { BANK_TABS } from "../../../src/protocol/vocabulary.js";
import { askQuantity, h } from "../dom.js";
import type { Game } from "../game.js";
import { slotHooks } from "./inventory.js";
import type { Panel } from "./panel.js";

/** The tab the bank shows (and new deposits go to), and the search, kept while the page lives. */
const view = { tab: 0, search: "" };

/**
 * The bank, while the player is within reach of one: its tabs (0, the main tab, to 9), a search
 * over every tab, placeholders (0 of an item, kept when the player's setting is on) drawn dim;
 * withdraw here, move to a tab, release a placeholder; deposit from the pack's menu (into the tab shown).
 */
export const bankPanel: Panel = {
  name: "Bank",
  render(game) {
    const bank = game.me.bank;
    if (!bank) return h("div", {}, h("h3", {}, "Bank"), h("p", {}, "Walk up to a bank booth or a banker to use your bank."));
    const used = new Set(bank.map((s) => s.tab));
    const tabs = Array.from({ length: BANK_TABS }, (_, t) => t).filter((t) => t === 0 || used.has(t) || t === view.tab);
    const next = Array.from({ length: BANK_TABS }, (_, t) => t).find((t) => !used.has(t) && t !== 0);
    const tabBar = h(
      "div",
      { className: "actions bank-tabs" },
      ...tabs.map((t) =>
        h("button", {
          className: view.tab === t && !view.search ? "on" : "",
          textContent: t === 0 ? "Main" : `Tab ${t}`,
          dataset: { tab: String(t) },
          onclick: () => ((view.tab = t), (view.search = ""), game.changed()),
        }),
      ),
      next !== undefined ? h("button", { textContent: "+", title: "A new tab: move items to it", onclick: () => ((view.tab = next), game.changed()) }) : null,
    );
    const search = h("input", {
      type: "search",
      className: "bank-search",
      placeholder: "Search the bank",
      value: view.search,
      oninput: () => {
        view.search = search.value;
        renderRows();
      },
    });
    const list = h("div", { className: "rows" });
    const placeholders = game.me.vars?.bankPlaceholders === true;
    const renderRows = () => {
      const q = view.search.trim().toLowerCase();
      const shown = bank.filter((s) => (q ? game.itemName(s.itemId).toLowerCase().includes(q) : s.tab === view.tab));
      list.replaceChildren(...shown.map((stack) => row(game, stack)));
      if (shown.length === 0) list.append(h("p", {}, q ? "Nothing in the bank matches." : "This tab is empty: move items here from another tab."));
    };
    renderRows();
    return h(
      "div",
      {},
      h("h3", {}, `Bank (${bank.filter((s) => s.quantity > 0).length} items)`),
      tabBar,
      search,
      list,
      h(
        "div",
        { className: "actions" },
        h("button", {
          className: placeholders ? "on" : "",
          textContent: `Placeholders: ${placeholders ? "on" : "off"}`,
          title: "Leave a placeholder where the last of an item is withdrawn, so it returns to its place",
          onclick: () => game.net.send("player:setting", { name: "bankPlaceholders", value: !placeholders }),
        }),
        bank.some((s) => s.quantity === 0) ? h("button", { textContent: "Release all placeholders", onclick: () => game.net.send("bank:release", {}) }) : null,
      ),
      h("p", {}, `Click an item in your pack to deposit it${view.tab ? ` (new items go to tab ${view.tab})` : ""}.`),
    );
  },
};

/** One bank stack: withdraw (none for a placeholder), move to a tab, release a placeholder. */
function row(game: Game, stack: { itemId: string; quantity: number; tab: number }) {
  const name = game.itemName(stack.itemId);
  const placeholder = stack.quantity === 0;
  const move = h(
    "select",
    { title: "Move to a tab", onchange: () => game.net.send("bank:tab", { itemId: stack.itemId, tab: Number(move.value) }) },
    ...Array.from({ length: BANK_TABS }, (_, t) => t).map((t) => h("option", { value: String(t), selected: t === stack.tab }, t === 0 ? "Main" : `Tab ${t}`)),
  );
  return h(
    "div",
    { dataset: { bank: stack.itemId }, className: placeholder ? "placeholder" : "" },
    h("span", {}, placeholder ? `${name} (placeholder)` : `${name} ×${stack.quantity}`),
    h(
      "span",
      {},
      ...(placeholder
        ? [h("button", { textContent: "Release", onclick: () => game.net.send("bank:release", { itemId: stack.itemId }) })]
        : [
            h("button", { textContent: "1", onclick: () => game.net.send("bank:withdraw", { itemId: stack.itemId, quantity: 1 }) }),
            h("button", {
              textContent: "X",
              onclick: () => {
                const quantity = askQuantity(`Withdraw how many ${name}?`, stack.quantity);
                if (quantity) game.net.send("bank:withdraw", { itemId: stack.itemId, quantity });
              },
            }),
            h("button", { textContent: "All", onclick: () => game.net.send("bank:withdraw", { itemId: stack.itemId, quantity: stack.quantity }) }),
          ]),
      move,
    ),
  );
}

slotHooks.push((game: Game, s) =>
  game.me.bank && !s.locked
    ? [
        { label: `Deposit ${game.itemName(s.itemId)}`, run: () => game.net.send("bank:deposit", { slot: s.slot, quantity: s.quantity, tab: view.tab }) },
        ...(s.quantity > 1
          ? [
              {
                label: `Deposit some ${game.itemName(s.itemId)}…`,
                run: () => {
                  const quantity = askQuantity(`Deposit how many ${game.itemName(s.itemId)}?`, s.quantity);
                  if (quantity) game.net.send("bank:deposit", { slot: s.slot, quantity, tab: view.tab });
                },
              },
            ]
          : []),
      ]
    : [],
);
