import type { InventorySlotView, StoreItemView, StoreView } from "../../../src/protocol/index.js";
import { askAmount } from "../amount.js";
import { h } from "../dom.js";
import type { Game, MenuOption } from "../game.js";
import { iconUrl } from "../icons.js";
import { pointerWords } from "../touch.js";
import { quantityText, slotHooks, type SlotOption } from "../panels/inventory.js";

/** How many a click on a shelf buys. */
type Amount = 1 | 5 | 10 | "x";
const AMOUNTS: readonly Amount[] = [1, 5, 10, "x"];
/** How many a sale from the pack's menu can be. */
const SALES: ReadonlyArray<Amount | "all"> = [1, 5, 10, "x", "all"];
const word = (a: Amount | "all", x: number) => (a === "all" ? "All" : a === "x" ? `X (${x})` : String(a));

const COINS = "coins";

/**
 * A store's window (PROTOCOL.md §10): its shelves as an icon grid, each with what is left on it
 * (an unlimited shelf shows none); pointing at one (or focusing it) says its price and what the
 * store pays for it, as its tooltip and on the line under the grid. A click buys the amount chosen
 * under the grid (1, 5, 10 or X), a right click (a long press) lists Value and every amount. While
 * it is open a click on a pack slot says what the store pays for that item (Value) and its right
 * click sells 1, 5, 10, X or all of it ("Give away" what the store pays nothing for). Amounts are
 * typed in the amount box, never a browser prompt.
 */
export function installStoreWindow(game: Game) {
  const net = game.net;
  let store: StoreView | null = null;
  const chosen = { amount: 1 as Amount, x: 20 };
  const buy = (it: StoreItemView, quantity: number) => net.send("store:buy", { itemId: it.itemId, quantity });
  /** The amount `a`: X the amount kept (asked first when `ask`, and kept), All every one. */
  const amountOf = async (a: Amount | "all", all: number, what: string, ask = false): Promise<number | null> => {
    if (a === "all") return all;
    if (a !== "x") return a;
    if (!ask) return chosen.x;
    const n = await askAmount(what, chosen.x);
    if (n !== null) chosen.x = n;
    return n;
  };
  const priceText = (it: StoreItemView) =>
    `${it.name}: ${it.price} coins${it.quantity >= 0 ? `, ${it.quantity} left` : ""}` +
    (it.sellPrice === null ? "; the store does not buy it back" : `; the store pays ${it.sellPrice}`);

  const shelf = (it: StoreItemView, say: (text: string) => void) => {
    const item = game.item(it.itemId);
    const cell = h(
      "div",
      {
        className: `slot${it.quantity === 0 ? " sold-out" : ""}`,
        tabIndex: 0,
        dataset: { shelf: it.itemId },
        title: priceText(it),
      },
      item ? h("img", { src: iconUrl(item), alt: "", width: 32, height: 32, draggable: false }) : null,
      h("span", { className: "name" }, it.name),
      it.quantity >= 0 ? h("div", { className: "qty" }, quantityText(it.quantity)) : null,
      h("div", { className: "price" }, `${quantityText(it.price)}c`),
    );
    const options = (): MenuOption[] => [
      { label: `Value ${it.name}`, run: () => game.log(`${priceText(it)}.`) },
      ...AMOUNTS.map((a) => ({
        label: `Buy-${a === "x" ? "X…" : word(a, chosen.x)} ${it.name}`,
        run: () => void amountOf(a, 0, `Buy how many ${it.name}?`, true).then((n) => n && buy(it, n)),
      })),
    ];
    cell.onclick = () => void amountOf(chosen.amount, 0, `Buy how many ${it.name}?`).then((n) => n && buy(it, n));
    cell.oncontextmenu = (ev) => {
      ev.preventDefault();
      game.menu(ev.pageX, ev.pageY, it.name, options());
    };
    cell.onmouseenter = cell.onfocus = () => say(priceText(it));
    return cell;
  };

  const render = () => {
    if (!store) return game.closeOverlay("store");
    const s = store;
    const line = h("p", { className: "store-line" }, "Point at an item for its price.");
    const say = (text: string) => (line.textContent = text);
    game.overlay(
      "store",
      s.name,
      h("div", { className: "store-grid" }, ...s.items.map((it) => shelf(it, say))),
      line,
      h(
        "div",
        { className: "store-amounts" },
        h("span", {}, "Buy:"),
        ...AMOUNTS.map((a) =>
          h("button", {
            className: chosen.amount === a ? "on" : "",
            textContent: word(a, chosen.x),
            dataset: { amount: String(a) },
            onclick: () => {
              if (a !== "x") {
                chosen.amount = a;
                return render();
              }
              void askAmount("How many does a click buy?", chosen.x).then((n) => {
                if (n === null) return;
                chosen.x = n;
                chosen.amount = "x";
                render();
              });
            },
          }),
        ),
      ),
      h(
        "p",
        {},
        s.buys === "none"
          ? "This store buys nothing."
          : `${pointerWords().rightClick[0]!.toUpperCase()}${pointerWords().rightClick.slice(1)} an item in your pack to sell it.`,
      ),
      h("button", { textContent: "Close", onclick: () => net.send("store:close", {}) }),
    );
  };
  net.on("store:open", (s) => {
    store = s;
    render();
  });
  net.on("store:update", (u) => {
    if (!store || store.storeId !== u.storeId) return;
    const changed = new Map(u.items.map((i) => [i.itemId, i]));
    const kept = store.items.filter((i) => !u.removed.includes(i.itemId)).map((i) => changed.get(i.itemId) ?? i);
    const added = u.items.filter((i) => !store!.items.some((k) => k.itemId === i.itemId));
    store = { ...store, items: [...kept, ...added] };
    render();
  });
  net.on("store:close", () => {
    store = null;
    render();
  });
  net.on("store:bought", (d) => game.log(`You bought ${d.quantity} ${game.itemName(d.itemId)} for ${d.coins} coins.`));
  net.on("store:sold", (d) => game.log(`You sold ${d.quantity} ${game.itemName(d.itemId)} for ${d.coins} coins.`));

  slotHooks.push((_game, s) => (store && store.buys !== "none" && !s.locked ? saleOptions(game, store, s, amountOf) : []));
}

/** What the store pays for one of an item, or null when it will not buy it (as the server's rules: src/game/store.ts). */
function offerFor(game: Game, store: StoreView, itemId: string): number | null {
  const shelf = store.items.find((i) => i.itemId === itemId);
  if (shelf) return shelf.sellPrice;
  const item = game.item(itemId);
  if (!item || !item.tradeable || itemId === COINS || store.buys !== "all") return null;
  return Math.floor(Math.max(1, Math.floor(item.value)) * store.buybackRate);
}

/** A pack slot's choices while a store is open: Value (a click), then its sales. */
function saleOptions(
  game: Game,
  store: StoreView,
  s: InventorySlotView,
  amountOf: (a: Amount | "all", all: number, what: string, ask: boolean) => Promise<number | null>,
): SlotOption[] {
  const name = game.itemName(s.itemId);
  const pays = offerFor(game, store, s.itemId);
  const value: SlotOption = {
    label: `Value ${name}`,
    primary: true,
    run: () => game.log(pays === null ? `${store.name} won't buy ${name}.` : `${store.name} pays ${pays} coins for ${name}.`),
  };
  if (pays === null) return [value];
  // What the store pays nothing for is given away, said so on the menu (the server asks for forNothing).
  const free = pays === 0;
  const verb = free ? "Give away" : "Sell";
  const all = game.item(s.itemId)?.stackable ? s.quantity : game.me.inventory.filter((t) => t.itemId === s.itemId).length;
  return [
    value,
    ...SALES.map((a) => ({
      label: `${verb}-${a === "x" ? "X…" : word(a, 0)} ${name}${free ? " (the store pays nothing)" : ` (${pays} coins each)`}`,
      run: () =>
        void amountOf(a, all, `${verb} how many ${name}?`, true).then((n) => n && game.net.send("store:sell", { slot: s.slot, quantity: n, forNothing: free })),
    })),
  ];
}
