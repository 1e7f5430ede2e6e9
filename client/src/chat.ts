import { h } from "./dom.js";
import type { Game, LogKind } from "./game.js";

const MAX_LINES = 200;

/** The chat box: what is said (local and world), what happens to the player, and the errors. */
export function installChat(root: HTMLElement, game: Game) {
  const net = game.net;
  const log = h("div", { className: "log", role: "log" });
  const input = h("input", { maxLength: 200, placeholder: "Say something (/world for everyone)", autocomplete: "off" });
  const channel = h("select", {}, h("option", { value: "local" }, "local"), h("option", { value: "world" }, "world"));
  const form = h("form", {}, channel, input, h("button", { type: "submit", textContent: "Send" }));
  form.onsubmit = (ev) => {
    ev.preventDefault();
    const message = input.value.trim();
    if (!message) return;
    net.send("player:chat", { message, channel: channel.value === "world" ? "world" : "local" });
    input.value = "";
  };
  root.replaceChildren(log, form);

  game.logTo = (text: string, kind: LogKind) => {
    log.append(h("div", { className: kind }, text));
    while (log.childElementCount > MAX_LINES) log.firstElementChild!.remove();
    log.scrollTop = log.scrollHeight;
  };
  net.on("chat:message", (m) => game.log(`${m.channel === "world" ? "[world] " : ""}${m.fromName}: ${m.message}`, m.channel));
  net.on("skill:xp", (x) => game.log(`+${x.gained} ${x.skill} xp (${Math.floor(x.xp)} in all)`));
  net.on("skill:levelup", (l) => game.log(`Congratulations: your ${l.skill} level is now ${l.level}!`));
  net.on("npc:killed", (k) => game.log(`You defeated the ${game.npc(k.npcId)?.name ?? k.npcId}.`));
  net.on("player:death", (d) => game.log(`Oh dear, you are dead! ${d.items.length ? "Your items lie where you fell." : ""}`, "error"));
  net.on("production:made", (p) =>
    game.log(p.success ? `You make ${p.made.map((m) => `${m.quantity} ${game.itemName(m.itemId)}`).join(", ")}.` : `You fail to make the ${p.recipeId}.`),
  );
  net.on("quest:started", (q) => game.log(`Quest started: ${q.name}`));
  net.on("quest:progress", (q) => game.log(`Quest progress: ${q.count}/${q.needed}`));
  net.on("quest:stage", (q) => q.stageDescription && game.log(`Quest: ${q.stageDescription}`));
  net.on("quest:completed", (q) => game.log(`Quest complete: ${q.name}! (${q.questPoints} quest points)`));
  net.on("session:replaced", (m) => game.log(m.message, "error"));
}
