import type { OfferView, ServerMessage, TradeValuesView } from "../../../src/protocol/index.js";
import { withAmount } from "../amount.js";
import { h } from "../dom.js";
import type { Game } from "../game.js";
import { slotHooks, type SlotOption } from "../panels/inventory.js";

interface OpenTrade {
  tradeId: string;
  partnerName: string;
  screen: "offer" | "confirm";
  mine: OfferView;
  theirs: OfferView;
  values?: TradeValuesView;
}

/**
 * Trading with another player (PROTOCOL.md §9): the request, the offer screen (offer from the
 * pack's menu, take back here), the confirm screen with the values, and the outcome.
 */
export function installTrade(game: Game) {
  const net = game.net;
  let trade: OpenTrade | null = null;

  const list = (offer: OfferView, mine: boolean) =>
    h(
      "div",
      { className: "rows" },
      offer.items.length === 0 ? h("div", {}, "nothing") : null,
      ...offer.items.map((it) =>
        h(
          "div",
          { dataset: { offered: it.itemId } },
          h("span", {}, `${game.itemName(it.itemId)} ×${it.quantity}`),
          mine && trade?.screen === "offer"
            ? h("button", {
                textContent: "Remove",
                onclick: () => trade && net.send("tradeRemoveItem", { tradeId: trade.tradeId, inventorySlot: it.inventorySlot, quantity: it.quantity }),
              })
            : null,
        ),
      ),
      h("div", { className: offer.accepted ? "accepted" : "" }, offer.accepted ? "Accepted" : "Not accepted yet"),
    );

  const render = () => {
    if (!trade) return game.closeOverlay("trade");
    const t = trade;
    const values = t.values
      ? h(
          "p",
          { className: t.values.lopsided ? "error" : "" },
          `You give ${t.values.myOfferValue} coins' worth and get ${t.values.theirOfferValue}` +
            (t.values.lopsided ? " — a lopsided trade: check it twice." : ""),
        )
      : null;
    game.overlay(
      "trade",
      `Trading with ${t.partnerName}${t.screen === "confirm" ? " — are you sure?" : ""}`,
      h(
        "div",
        { className: "cols" },
        h("div", {}, h("b", {}, "Your offer"), list(t.mine, true)),
        h("div", {}, h("b", {}, `${t.partnerName}'s offer`), list(t.theirs, false)),
      ),
      values ?? h("p", {}, "Click items in your pack to offer them."),
      h(
        "div",
        { className: "actions" },
        h("button", { textContent: "Accept", disabled: t.mine.accepted, onclick: () => net.send("tradeAccept", { tradeId: t.tradeId }) }),
        h("button", { textContent: "Decline", onclick: () => net.send("tradeCancel", { tradeId: t.tradeId }) }),
      ),
    );
  };

  net.on("tradeIncoming", (m) =>
    game.ask("trade", `${m.fromPlayerName} wishes to trade with you`, (accept) => net.send("tradeRequestRespond", { tradeId: m.tradeId, accept })),
  );
  net.on("tradeRequestSent", (m) => game.log(`Sending a trade request to ${m.targetName}…`));
  net.on("tradeStarted", (m) => {
    trade = { tradeId: m.tradeId, partnerName: m.partnerName, screen: "offer", mine: { items: [], accepted: false }, theirs: { items: [], accepted: false } };
    render();
  });
  const update = (m: ServerMessage<"tradeUpdated">, screen: "offer" | "confirm", values?: TradeValuesView) => {
    if (!trade || trade.tradeId !== m.tradeId) return;
    trade = { ...trade, screen, mine: m.myOffer, theirs: m.theirOffer, values };
    render();
  };
  net.on("tradeUpdated", (m) => update(m, trade?.screen ?? "offer", trade?.values));
  net.on("tradeConfirmScreen", (m) => update(m, "confirm", m.values));
  net.on("tradeCompleted", (m) => {
    trade = null;
    render();
    const got = m.receivedItems.map((i) => `${i.quantity} ${game.itemName(i.itemId)}`).join(", ");
    game.log(`Trade completed.${got ? ` You received ${got}.` : ""}`);
  });
  net.on("tradeCancelled", (m) => {
    trade = null;
    game.closeOverlay("trade");
    game.log(`Trade cancelled: ${m.message}`);
  });
  net.on("tradeError", (m) => game.log(`${m.message} (${m.code})`, "error"));

  slotHooks.push((_game, s) => {
    const t = trade;
    if (!t || t.screen !== "offer" || s.locked) return [];
    const name = game.itemName(s.itemId);
    const offer = (quantity: number) => net.send("tradeAddItem", { tradeId: t.tradeId, inventorySlot: s.slot, quantity });
    const options: SlotOption[] = [{ label: `Offer ${name}${s.quantity > 1 ? ` ×${s.quantity}` : ""}`, primary: true, run: () => offer(s.quantity) }];
    if (s.quantity > 1) {
      options.push({
        label: `Offer some ${name}…`,
        run: () => withAmount(`Offer how many ${name}?`, s.quantity, offer),
      });
    }
    return options;
  });
}
