import type { Standing } from "./connection.js";
import { h } from "./dom.js";
import { keepChat, keptChat, KEPT_CHAT_LINES, type KeptLine } from "./session.js";
import type { Game, LogKind } from "./game.js";

const MAX_LINES = 200;
const PLACEHOLDER = "Say something (/world for everyone)";
/** The longest a timer waits (about 24.8 days): a mute ending later is cleared by the next standing. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** When a mute (or any sanction) ends, in the player's own clock ("until Nov 29, 2026, 3:45 AM") or "permanently". */
export function untilText(until: string | null): string {
  if (until === null) return "permanently";
  return `until ${new Date(until).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}`;
}

/** The chat box: what is said (local, world, and private messages in any world), what happens to the player, and the errors. */
export function installChat(root: HTMLElement, game: Game) {
  const net = game.net;
  const log = h("div", { className: "log", role: "log" });
  const input = h("input", { maxLength: 200, placeholder: PLACEHOLDER, autocomplete: "off" });
  const to = h("input", { maxLength: 12, placeholder: "To (name)", autocomplete: "off", className: "to", hidden: true });
  const channel = h(
    "select",
    {},
    h("option", { value: "local" }, "local"),
    h("option", { value: "world" }, "world"),
    h("option", { value: "private" }, "private"),
  );
  channel.onchange = () => (to.hidden = channel.value !== "private");
  game.whisper = (name: string) => {
    channel.value = "private";
    to.hidden = false;
    to.value = name;
    input.focus();
  };
  // While muted: a mark before the input, and the input says until when (the server refuses what is said, MUTED).
  const muted = h("span", { className: "muted-mark", textContent: "Muted", hidden: true });
  // The message's input stays the form's first input; the recipient's follows it (private only).
  const form = h(
    "form",
    {},
    channel,
    muted,
    input,
    to,
    h("button", { type: "submit", textContent: "Send" }),
    h("button", { type: "button", className: "report", textContent: "Report", title: "Report a player to the staff", onclick: () => game.report("") }),
  );
  form.onsubmit = (ev) => {
    ev.preventDefault();
    const message = input.value.trim();
    if (!message) return;
    if (channel.value === "private") {
      const name = to.value.trim();
      if (!name) return game.log("Name whom the private message is for", "error");
      net.send("player:chat", { message, channel: "private", to: name });
    } else net.send("player:chat", { message, channel: channel.value === "world" ? "world" : "local" });
    input.value = "";
  };
  root.replaceChildren(log, form);

  // The lines of this tab's session come back after a reload; each new line is kept for the next.
  const kept: KeptLine[] = keptChat();
  const show = (text: string, kind: LogKind) => {
    log.append(h("div", { className: kind }, text));
    while (log.childElementCount > MAX_LINES) log.firstElementChild!.remove();
  };
  for (const line of kept) show(line.text, line.kind as LogKind);
  game.logTo = (text: string, kind: LogKind) => {
    show(text, kind);
    log.scrollTop = log.scrollHeight;
    kept.push({ text, kind });
    if (kept.length > KEPT_CHAT_LINES) kept.splice(0, kept.length - KEPT_CHAT_LINES);
    keepChat(kept);
  };
  net.on("chat:message", (m) => {
    if (m.channel === "private") return game.log(m.fromId === game.me?.id ? `To ${m.toName}: ${m.message}` : `From ${m.fromName}: ${m.message}`, "private");
    game.log(`${m.channel === "world" ? "[world] " : ""}${m.fromName}: ${m.message}`, m.channel);
  });
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

  let unmuteTimer: ReturnType<typeof setTimeout> | undefined;
  const showMute = (mute: Standing["muted"]) => {
    clearTimeout(unmuteTimer);
    form.classList.toggle("muted", mute !== null);
    muted.hidden = mute === null;
    const text = mute ? `You are muted ${untilText(mute.until)}: ${mute.reason}` : "";
    input.placeholder = mute ? text : PLACEHOLDER;
    form.title = muted.title = text;
    // A timed mute ends on its own: the input says so then (the server sends nothing at that moment).
    const left = mute?.until ? Date.parse(mute.until) - Date.now() : NaN;
    if (left > 0 && left <= MAX_TIMER_MS) unmuteTimer = setTimeout(() => showMute(null), left);
    else if (left <= 0) showMute(null);
  };
  net.on("account:standing", (s) => showMute(s.muted));
  // Refused for a mute the page did not know of: the refusal says until when.
  net.on("error", (e) => {
    if (e.code !== "MUTED" || !muted.hidden) return;
    form.classList.add("muted");
    muted.hidden = false;
    input.placeholder = form.title = muted.title = e.message;
  });
  showMute(game.standing.muted);
}
