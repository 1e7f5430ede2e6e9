import { h } from "../dom.js";
import type { Game } from "../game.js";

/**
 * The npcs' windows (PROTOCOL.md §10): a conversation's nodes and answers and the tanner's offer
 * (the store: store.ts; the bank an npc opens: bank.ts).
 */
export function installNpcWindows(game: Game) {
  const net = game.net;

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
}
