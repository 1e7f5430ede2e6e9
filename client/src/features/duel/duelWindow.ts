import { DUEL_RULES } from "../../../../src/protocol/vocabulary.js";
import type { DuelSideView, ServerMessage } from "../../../../src/protocol/index.js";
import { withAmount } from "../../amount.js";
import { h } from "../../dom.js";
import type { Game } from "../../game.js";
import { slotHooks } from "../../panels/inventory.js";

const RULE_TEXT: Record<(typeof DUEL_RULES)[number], string> = {
  noMelee: "No melee",
  noRanged: "No ranged",
  noMagic: "No magic",
  noPrayer: "No prayer",
  noFood: "No food",
  noMovement: "No movement",
  noForfeit: "No forfeit",
};

/**
 * Staked duels (PROTOCOL.md §11): the challenge, the rules, stakes and confirm screens, the
 * countdown and the fight (attack the opponent from the map; forfeit here), and the outcome.
 */
export function installDuel(game: Game) {
  const net = game.net;
  let screen: ServerMessage<"duel:screen"> | null = null;
  let fight: { duelId: string; opponentName: string } | null = null;

  const side = (s: DuelSideView, mine: boolean, duelId: string, editable: boolean) =>
    h(
      "div",
      { className: "rows" },
      ...s.stake.map((it) =>
        h(
          "div",
          { dataset: { staked: it.itemId } },
          h("span", {}, `${game.itemName(it.itemId)} ×${it.quantity}`),
          mine && editable
            ? h("button", { textContent: "Remove", onclick: () => net.send("duel:unstake", { duelId, inventorySlot: it.inventorySlot }) })
            : null,
        ),
      ),
      h("div", {}, `Worth ${s.stakeValue}`),
      h("div", { className: s.accepted ? "accepted" : "" }, s.accepted ? "Accepted" : "Not accepted yet"),
    );

  const render = () => {
    if (!screen) return game.closeOverlay("duel");
    const d = screen;
    const rules = DUEL_RULES.map((rule) =>
      h(
        "label",
        {},
        h("input", {
          type: "checkbox",
          checked: d.rules[rule],
          disabled: d.screen !== "rules",
          onchange: () => net.send("duel:rule", { duelId: d.duelId, rule, on: !d.rules[rule] }),
        }),
        RULE_TEXT[rule],
      ),
    );
    game.overlay(
      "duel",
      `Duel with ${d.them.name} — ${d.screen}`,
      h("div", { className: "actions" }, ...rules),
      h(
        "div",
        { className: "cols" },
        h("div", {}, h("b", {}, "Your stake"), side(d.me, true, d.duelId, d.screen === "stakes")),
        h("div", {}, h("b", {}, `${d.them.name}'s stake`), side(d.them, false, d.duelId, false)),
      ),
      d.screen === "stakes" ? h("p", {}, "Click items in your pack to stake them.") : "",
      h(
        "div",
        { className: "actions" },
        h("button", { textContent: "Accept", disabled: d.me.accepted, onclick: () => net.send("duel:accept", { duelId: d.duelId }) }),
        h("button", { textContent: "Decline", onclick: () => net.send("duel:cancel", { duelId: d.duelId }) }),
      ),
    );
  };

  net.on("duel:incoming", (m) =>
    game.ask("duel", `${m.fromPlayerName} challenges you to a duel`, (accept) => net.send("duel:respond", { duelId: m.duelId, accept })),
  );
  net.on("duel:requestSent", (m) => game.log(`Sending a duel challenge to ${m.targetName}…`));
  net.on("duel:screen", (m) => {
    screen = m;
    render();
  });
  net.on("duel:countdown", (m) => {
    const opponentName = screen?.them.name ?? "your opponent";
    screen = null;
    fight = { duelId: m.duelId, opponentName };
    game.duelOpponent = m.opponentId;
    game.log(`The duel begins in ${m.ticks} ticks.`);
    game.overlay(
      "duel",
      `Duel with ${opponentName}`,
      h("p", {}, "Click your opponent to fight."),
      h("button", { textContent: "Forfeit", onclick: () => fight && net.send("duel:forfeit", { duelId: fight.duelId }) }),
    );
  });
  net.on("duel:fight", () => game.log("Fight!"));
  net.on("duel:ended", (m) => {
    fight = null;
    game.duelOpponent = null;
    game.closeOverlay("duel");
    game.log(m.message);
  });
  net.on("duel:cancelled", (m) => {
    screen = null;
    game.closeOverlay("duel");
    game.log(`Duel cancelled: ${m.message}`);
  });
  net.on("duel:error", (m) => game.log(`${m.message} (${m.code})`, "error"));

  slotHooks.push((_game, s) => {
    const d = screen;
    if (!d || d.screen !== "stakes" || s.locked) return [];
    const name = game.itemName(s.itemId);
    return [
      {
        label: `Stake ${name}`,
        primary: true,
        run: () => {
          const stake = (quantity: number) => net.send("duel:stake", { duelId: d.duelId, inventorySlot: s.slot, quantity });
          if (s.quantity > 1) withAmount(`Stake how many ${name}?`, s.quantity, stake);
          else stake(1);
        },
      },
    ];
  });
}
