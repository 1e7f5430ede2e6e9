import { askQuantity, h } from "../dom.js";
import type { Game } from "../game.js";
import { slotHooks } from "./inventory.js";
import type { Panel } from "./panel.js";

/** The bank, while the player is within reach of one: withdraw here, deposit from the pack's menu. */
export const bankPanel: Panel = {
  name: "Bank",
  render(game) {
    const bank = game.me.bank;
    if (!bank) return h("div", {}, h("h3", {}, "Bank"), h("p", {}, "Walk up to a bank booth or a banker to use your bank."));
    const rows = bank.map((stack) =>
      h(
        "div",
        { dataset: { bank: stack.itemId } },
        h("span", {}, `${game.itemName(stack.itemId)} ×${stack.quantity}`),
        h(
          "span",
          {},
          h("button", { textContent: "1", onclick: () => game.net.send("bank:withdraw", { itemId: stack.itemId, quantity: 1 }) }),
          h("button", {
            textContent: "X",
            onclick: () => {
              const quantity = askQuantity(`Withdraw how many ${game.itemName(stack.itemId)}?`, stack.quantity);
              if (quantity) game.net.send("bank:withdraw", { itemId: stack.itemId, quantity });
            },
          }),
          h("button", { textContent: "All", onclick: () => game.net.send("bank:withdraw", { itemId: stack.itemId, quantity: stack.quantity }) }),
        ),
      ),
    );
    return h(
      "div",
      {},
      h("h3", {}, `Bank (${bank.length} items)`),
      h("div", { className: "rows" }, ...rows),
      h("p", {}, "Click an item in your pack to deposit it."),
    );
  },
};

slotHooks.push((game: Game, s) =>
  game.me.bank && !s.locked
    ? [
        { label: `Deposit ${game.itemName(s.itemId)}`, run: () => game.net.send("bank:deposit", { slot: s.slot, quantity: s.quantity }) },
        ...(s.quantity > 1
          ? [
              {
                label: `Deposit some ${game.itemName(s.itemId)}…`,
                run: () => {
                  const quantity = askQuantity(`Deposit how many ${game.itemName(s.itemId)}?`, s.quantity);
                  if (quantity) game.net.send("bank:deposit", { slot: s.slot, quantity });
                },
              },
            ]
          : []),
      ]
    : [],
);
