import { BANK_TABS } from "../../../src/protocol/vocabulary.js";
import type { BankStackView, InventorySlotView } from "../../../src/protocol/index.js";
import { askAmount } from "../amount.js";
import { byId, h } from "../dom.js";
import type { Game, MenuOption } from "../game.js";
import { iconUrl } from "../icons.js";
import { pointerWords } from "../touch.js";
import { quantityText, slotHooks, type SlotOption } from "../panels/inventory.js";

/** How many a click on a bank or pack slot moves: a number, or every one. */
type Amount = 1 | 5 | 10 | "x" | "all";
const AMOUNTS: readonly Amount[] = [1, 5, 10, "x", "all"];
const amountWord = (a: Amount, x: number) => (a === "all" ? "All" : a === "x" ? `X (${x})` : String(a));

/** What the window keeps while the page lives: the tab shown (new deposits go there), the search, the amount a click moves. */
const view = { tab: 0, search: "", amount: 1 as Amount, x: 20 };
/** The window is wanted (a booth or a banker opened it): it shows while the bank is in reach. */
let wanted = false;
let redraw: () => void = () => {};

/** Is the bank window open? */
export function bankWindowOpen(): boolean {
  return !byId("bank").hidden;
}

/** Close the bank window; false when it was not open. */
export function closeBankWindow(): boolean {
  if (!bankWindowOpen()) return false;
  wanted = false;
  redraw();
  return true;
}

/**
 * The bank as a window over the map, with the pack beside it (the side panel shows the Pack while
 * it is open): its tabs (Main and up to nine more), a search over every tab, the stacks as an icon
 * grid with their amounts, placeholders (0 of an item) drawn dim. A click on a bank slot withdraws
 * the amount chosen under the grid (1, 5, 10, X, All), a click on a pack slot deposits it (into
 * the tab shown); a right click (a long press) on either lists every amount, and on a bank slot
 * moving it to a tab and releasing a placeholder. "Deposit pack" puts everything in the pack that
 * is not offered in a trade into the bank. It opens at a booth or a banker, closes by its ×, by
 * Escape, and when the player walks out of reach.
 */
export function installBankWindow(game: Game) {
  const box = byId("bank");
  const title = h("h3", {});
  const tabBar = h("div", { className: "bank-tabs" });
  const search = h("input", {
    type: "search",
    className: "bank-search",
    placeholder: "Search the bank",
    oninput: () => {
      view.search = search.value;
      draw();
    },
  });
  const grid = h("div", { className: "bank-grid" });
  const footer = h("div", { className: "bank-footer" });
  box.replaceChildren(
    h("header", {}, title, h("button", { className: "close", textContent: "×", title: "Close (Escape)", onclick: () => closeBankWindow() })),
    tabBar,
    search,
    grid,
    footer,
  );

  const net = game.net;
  const withdraw = (stack: BankStackView, quantity: number) => net.send("bank:withdraw", { itemId: stack.itemId, quantity });
  /** The amount `a` of a stack: X the amount kept (asked first when `ask`, and kept), All every one. */
  const amountOf = async (a: Amount, all: number, what: string, ask = false): Promise<number | null> => {
    if (a === "all") return all;
    if (a !== "x") return a;
    if (!ask) return view.x;
    const n = await askAmount(what, view.x);
    if (n !== null) view.x = n;
    return n;
  };

  const bankSlot = (stack: BankStackView) => {
    const item = game.item(stack.itemId);
    const name = game.itemName(stack.itemId);
    const placeholder = stack.quantity === 0;
    const cell = h(
      "div",
      {
        className: `slot${placeholder ? " placeholder" : ""}`,
        tabIndex: 0,
        dataset: { bank: stack.itemId },
        title: placeholder ? `${name} (placeholder)` : `${name} ×${stack.quantity}`,
      },
      item ? h("img", { src: iconUrl(item), alt: "", width: 32, height: 32, draggable: false }) : null,
      h("span", { className: "name" }, name),
      placeholder ? null : h("div", { className: "qty" }, quantityText(stack.quantity)),
    );
    const options = (): MenuOption[] => [
      ...(placeholder
        ? [{ label: `Release the ${name} placeholder`, run: () => net.send("bank:release", { itemId: stack.itemId }) }]
        : AMOUNTS.map((a) => ({
            label: `Withdraw-${a === "x" ? "X…" : amountWord(a, view.x)} ${name}`,
            run: () => void amountOf(a, stack.quantity, `Withdraw how many ${name}?`, true).then((n) => n && withdraw(stack, n)),
          }))),
      ...Array.from({ length: BANK_TABS }, (_, t) => t)
        .filter((t) => t !== stack.tab)
        .map((t) => ({ label: `Move to ${t === 0 ? "the main tab" : `tab ${t}`}`, run: () => net.send("bank:tab", { itemId: stack.itemId, tab: t }) })),
    ];
    cell.onclick = (ev) => {
      if (placeholder) return game.menu(ev.pageX, ev.pageY, name, options());
      void amountOf(view.amount, stack.quantity, `Withdraw how many ${name}?`).then((n) => n && withdraw(stack, n));
    };
    cell.oncontextmenu = (ev) => {
      ev.preventDefault();
      game.menu(ev.pageX, ev.pageY, name, options());
    };
    return cell;
  };

  const draw = () => {
    const bank = game.me.bank;
    const shown = wanted && bank !== null;
    if (!shown) {
      if (!box.hidden) box.hidden = true;
      if (bank === null) wanted = false;
      return;
    }
    box.hidden = false;
    const used = new Set(bank.map((s) => s.tab));
    const tabs = Array.from({ length: BANK_TABS }, (_, t) => t).filter((t) => t === 0 || used.has(t) || t === view.tab);
    const next = Array.from({ length: BANK_TABS }, (_, t) => t).find((t) => !used.has(t) && t !== 0 && t !== view.tab);
    const count = bank.filter((s) => s.quantity > 0).length;
    title.textContent = `Bank (${count} ${count === 1 ? "item" : "items"})`;
    tabBar.replaceChildren(
      ...tabs.map((t) =>
        h("button", {
          className: view.tab === t && !view.search ? "on" : "",
          textContent: t === 0 ? "Main" : `Tab ${t}`,
          dataset: { tab: String(t) },
          onclick: () => {
            view.tab = t;
            view.search = search.value = "";
            draw();
          },
        }),
      ),
      ...(next !== undefined
        ? [
            h("button", {
              textContent: "+",
              title: `A new tab: move items to it (${pointerWords().rightClick} an item)`,
              onclick: () => {
                view.tab = next;
                draw();
              },
            }),
          ]
        : []),
    );
    const q = view.search.trim().toLowerCase();
    const stacks = bank.filter((s) => (q ? game.itemName(s.itemId).toLowerCase().includes(q) : s.tab === view.tab));
    grid.replaceChildren(...stacks.map(bankSlot));
    if (stacks.length === 0)
      grid.append(h("p", {}, q ? "Nothing in the bank matches." : `This tab is empty: ${pointerWords().rightClick} an item to move it here.`));
    const placeholders = game.me.vars?.bankPlaceholders === true;
    footer.replaceChildren(
      h(
        "div",
        { className: "bank-amounts" },
        h("span", {}, "Amount:"),
        ...AMOUNTS.map((a) =>
          h("button", {
            className: view.amount === a ? "on" : "",
            textContent: amountWord(a, view.x),
            dataset: { amount: String(a) },
            onclick: () => {
              if (a !== "x") {
                view.amount = a;
                return draw();
              }
              void askAmount("How many does a click move?", view.x).then((n) => {
                if (n === null) return;
                view.x = n;
                view.amount = "x";
                draw();
              });
            },
          }),
        ),
      ),
      h(
        "div",
        { className: "actions" },
        h("button", { textContent: "Deposit pack", title: "Everything in the pack into the bank", onclick: () => depositPack(game) }),
        h("button", {
          className: placeholders ? "on" : "",
          textContent: `Placeholders: ${placeholders ? "on" : "off"}`,
          title: "Leave a placeholder where the last of an item is withdrawn, so it returns to its place",
          onclick: () => net.send("player:setting", { name: "bankPlaceholders", value: !placeholders }),
        }),
        bank.some((s) => s.quantity === 0) ? h("button", { textContent: "Release all placeholders", onclick: () => net.send("bank:release", {}) }) : null,
      ),
    );
  };
  redraw = draw;

  const open = () => {
    wanted = true;
    game.showTab("Pack");
    draw();
  };
  game.openBank = open;
  net.on("bank:open", open);
  game.onChange(draw);

  slotHooks.push((_game, s) => (bankWindowOpen() && !s.locked ? depositOptions(game, s, amountOf) : []));
}

/** A pack slot's deposits while the bank is open: the amount chosen first (a click), then every amount. */
function depositOptions(
  game: Game,
  s: InventorySlotView,
  amountOf: (a: Amount, all: number, what: string, ask: boolean) => Promise<number | null>,
): SlotOption[] {
  const name = game.itemName(s.itemId);
  const all = countOf(game, s);
  const deposit = (a: Amount, ask: boolean) => () =>
    void amountOf(a, all, `Deposit how many ${name}?`, ask).then((n) => n && game.net.send("bank:deposit", { slot: s.slot, quantity: n, tab: view.tab }));
  return [
    { label: `Deposit-${amountWord(view.amount, view.x)} ${name}`, primary: true, run: deposit(view.amount, false) },
    ...AMOUNTS.map((a) => ({ label: `Deposit-${a === "x" ? "X…" : amountWord(a, view.x)} ${name}`, run: deposit(a, true) })),
  ];
}

/** How many of the slot's item the pack holds: the stack, or every slot of it for an item that does not stack. */
function countOf(game: Game, s: InventorySlotView): number {
  if (game.item(s.itemId)?.stackable) return s.quantity;
  return game.me.inventory.filter((t) => t.itemId === s.itemId).reduce((n, t) => n + t.quantity, 0);
}

/** Everything in the pack not offered in a trade, into the bank's tab shown: one deposit per item. */
function depositPack(game: Game) {
  const seen = new Set<string>();
  const offered = new Set(game.me.inventory.filter((s) => s.locked).map((s) => s.itemId));
  for (const s of game.me.inventory) {
    // An item offered in a trade stays (and so does the rest of it, when it does not stack: a deposit takes from every slot).
    if (s.locked || seen.has(s.itemId) || (offered.has(s.itemId) && !game.item(s.itemId)?.stackable)) continue;
    seen.add(s.itemId);
    game.net.send("bank:deposit", { slot: s.slot, quantity: countOf(game, s), tab: view.tab });
  }
}
