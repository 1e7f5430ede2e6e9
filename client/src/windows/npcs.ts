import { askQuantity, h } from "../dom.js";
import type { Game } from "../game.js";
import { slotHooks } from "../panels/inventory.js";
import type { StoreView } from "../../../src/protocol/index.js";

/**
 * The npcs' windows (PROTOCOL.md §10): a conversation's nodes and answers, a store's shelves (buy
 * here, sell from the pack's menu), the tanner's offer, and the bank an npc opens.
 */
export function installNpcWindows(game: Game) {
  const net = game.net;
  let store: StoreView | null = null;

  // The conversation's last words stay until read: a node without answers ends it, and Continue puts it away.
  let last: { npcName: string; text: string; final: boolean } | null = null;
  const showLast = () =>
    last &&
    game.overlay(
      "dialogue",
      last.npcName,
      h("p", {}, last.text),
      h("div", { className: "actions" }, h("button", { textContent: "Continue", onclick: () => game.closeOverlay("dialogue") })),
    );
  net.on("dialogue:node", (node) => {
    last = { npcName: node.npcName, text: node.text, final: node.responses.length === 0 };
    game.overlay(
      "dialogue",
      node.npcName,
      h("p", {}, node.text),
      h(
        "div",
        { className: "actions" },
        ...node.responses.map((r) => h("button", { textContent: r.text, onclick: () => net.send("dialogue:respond", { index: r.index }) })),
        node.responses.length
          ? h("button", { textContent: "Walk away", onclick: () => net.send("dialogue:close", {}) })
          : // Last words: the server ends the conversation by itself (its dialogue:end may not be here yet), so they are put away here.
            h("button", {
              textContent: "Continue",
              onclick: () => {
                last = null;
                game.closeOverlay("dialogue");
              },
            }),
      ),
    );
  });
  net.on("dialogue:end", (end) => {
    if (end.reason === "finished" && last?.final) showLast();
    else game.closeOverlay("dialogue");
    last = null;
  });
  net.on("bank:open", () => game.showTab("Bank"));
  net.on("tanner:open", (offer) =>
    game.overlay(
      "tanner",
      "Tanner",
      h(
        "div",
        { className: "rows" },
        ...offer.recipes.map((r) =>
          h(
            "div",
            {},
            h("span", {}, `${game.itemName(r.output.itemId)} from ${game.itemName(r.input.itemId)} (${r.coins} coins)`),
            h(
              "span",
              {},
              h("button", {
                textContent: "Tan 1",
                onclick: () => net.send("production:make", { kind: "tanning", recipeId: r.recipeId, count: 1, stationId: offer.npcId }),
              }),
              h("button", {
                textContent: "Tan all",
                onclick: () => net.send("production:make", { kind: "tanning", recipeId: r.recipeId, count: "all", stationId: offer.npcId }),
              }),
            ),
          ),
        ),
      ),
      h("button", { textContent: "Close", onclick: () => game.closeOverlay("tanner") }),
    ),
  );

  const renderStore = () => {
    if (!store) return game.closeOverlay("store");
    const s = store;
    game.overlay(
      "store",
      s.name,
      h(
        "div",
        { className: "rows" },
        ...s.items.map((it) =>
          h(
            "div",
            { dataset: { shelf: it.itemId } },
            h("span", {}, `${it.name} — ${it.price} coins${it.quantity >= 0 ? ` (${it.quantity} left)` : ""}`),
            h(
              "span",
              {},
              h("button", { textContent: "Buy 1", onclick: () => net.send("store:buy", { itemId: it.itemId, quantity: 1 }) }),
              h("button", {
                textContent: "Buy X",
                onclick: () => {
                  const quantity = askQuantity(`Buy how many ${it.name}?`, 1);
                  if (quantity) net.send("store:buy", { itemId: it.itemId, quantity });
                },
              }),
            ),
          ),
        ),
      ),
      h("p", {}, s.buys === "none" ? "This store buys nothing." : "Click items in your pack to sell them."),
      h("button", { textContent: "Close", onclick: () => net.send("store:close", {}) }),
    );
  };
  net.on("store:open", (s) => {
    store = s;
    renderStore();
  });
  net.on("store:update", (u) => {
    if (!store || store.storeId !== u.storeId) return;
    const changed = new Map(u.items.map((i) => [i.itemId, i]));
    const kept = store.items.filter((i) => !u.removed.includes(i.itemId)).map((i) => changed.get(i.itemId) ?? i);
    const added = u.items.filter((i) => !store!.items.some((k) => k.itemId === i.itemId));
    store = { ...store, items: [...kept, ...added] };
    renderStore();
  });
  net.on("store:close", () => {
    store = null;
    renderStore();
  });
  net.on("store:bought", (d) => game.log(`You bought ${d.quantity} ${game.itemName(d.itemId)} for ${d.coins} coins.`));
  net.on("store:sold", (d) => game.log(`You sold ${d.quantity} ${game.itemName(d.itemId)} for ${d.coins} coins.`));

  slotHooks.push((_game, s) => {
    if (!store || store.buys === "none" || s.locked) return [];
    const name = game.itemName(s.itemId);
    const shelf = store.items.find((i) => i.itemId === s.itemId);
    const price = shelf?.sellPrice != null ? ` (${shelf.sellPrice} coins each)` : "";
    // What the store pays nothing for is given away, said so on the menu (the server asks for forNothing).
    const free = shelf?.sellPrice === 0;
    const verb = free ? "Give away" : "Sell";
    return [
      {
        label: `${verb} 1 ${name}${free ? " (the store pays nothing)" : price}`,
        run: () => net.send("store:sell", { slot: s.slot, quantity: 1, forNothing: free }),
      },
      {
        label: `${verb} some ${name}…`,
        run: () => {
          const quantity = askQuantity(`${verb} how many ${name}?`, s.quantity);
          if (quantity) net.send("store:sell", { slot: s.slot, quantity, forNothing: free });
        },
      },
    ];
  });
}
