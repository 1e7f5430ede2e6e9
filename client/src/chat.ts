import type { Standing } from "./connection.js";
import { installChatFilters } from "./chatFilters.js";
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
  const filters = h("div", { className: "chat-filters", role: "toolbar", ariaLabel: "Chat filters" });
  root.replaceChildren(filters, log, form);
  const heard = installChatFilters(filters, log);

  // The lines of this tab's session come back after a reload; each new line is kept for the next.
  const kept: KeptLine[] = keptChat();
  const show = (text: string, kind: LogKind) => {
    log.append(h("div", { className: kind }, text));
    while (log.childElementCount > MAX_LINES) log.firstElementChild!.remove();
  };
  for (const line of kept) show(line.text, line.kind as LogKind);
  game.logTo = (text: string, kind: LogKind) => {
    show(text, kind);
    heard(kind);
    log.scrollTop = log.scrollHeight;
    kept.push({ text, kind });
    if (kept.length > KEPT_CHAT_LINES) kept.splice(0, kept.length - KEPT_CHAT_LINES);
    keepChat(kept);
  };
  net.on("chat:message", (m) => {
    if (m.channel === "private") return game.log(m.fromId === game.me?.id ? `To ${m.toName}: ${m.message}` : `From ${m.fromName}: ${m.message}`, "private");
    game.log(`${m.channel === "world" ? "[world] " : ""}${m.fromName}: ${m.message}`, m.channel);
  });
  // A fight's xp is one line, at the kill (or when the fight stops), so its blows do not bury the quest's lines.
  const fightXp = new Map<string, number>();
  // In a fight from the player's first blow (combat:hit comes before its xp) until the kill or the fight stops.
  let fighting = false;
  net.on("combat:hit", (hit) => {
    if (hit.attackerId === game.me?.id) fighting = true;
  });
  const fightXpText = () => [...fightXp].map(([skill, xp]) => `+${xp} ${skill}`).join(", ");
  const flushFight = (prefix: string) => {
    fighting = false;
    if (fightXp.size === 0) return prefix && game.log(prefix);
    if (prefix) game.log(prefix);
    game.log(`(${fightXpText()} xp)`, "xp");
    fightXp.clear();
  };
  net.on("skill:xp", (x) => {
    if (COMBAT_SKILLS.has(x.skill) && fighting) return void fightXp.set(x.skill, (fightXp.get(x.skill) ?? 0) + x.gained);
    game.log(`+${x.gained} ${x.skill} xp (${Math.floor(x.xp)} in all)`, "xp");
  });
  net.on("player:sync", (s) => {
    if (s.action !== "attack" && fighting) flushFight(fightXp.size > 0 ? "The fight is over." : "");
  });
  net.on("skill:levelup", (l) => game.log(`Congratulations: your ${l.skill} level is now ${l.level}!`));
  net.on("npc:killed", (k) => flushFight(`You defeated the ${game.npc(k.npcId)?.name ?? k.npcId}.`));
  net.on("player:death", (d) => game.log(`Oh dear, you are dead! ${d.items.length ? "Your items lie where you fell." : ""}`, "error"));
  net.on("production:made", (p) =>
    game.log(p.success ? `You make ${p.made.map((m) => `${m.quantity} ${game.itemName(m.itemId)}`).join(", ")}.` : `You fail to make the ${p.recipeId}.`),
  );
  net.on("quest:started", (q) => game.log(`Quest started: ${q.name}`));
  net.on("quest:progress", (q) => game.log(`Quest progress: ${q.count}/${q.needed}`));
  net.on("quest:stage", (q) => q.stageDescription && game.log(`Quest: ${q.stageDescription}`));
  net.on("quest:completed", (q) => game.log(`Quest complete: ${q.name}! (${q.questPoints} quest points)`));
  net.on("session:replaced", (m) => game.log(m.message, "error"));
  installNewcomerHints(game);

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

/** The skills a blow's xp goes to. */
const COMBAT_SKILLS = new Set(["attack", "strength", "defense", "constitution", "ranged", "magic"]);

/**
 * Two hints a newcomer needs once each visit: to eat when health runs low in a fight (with food in
 * the pack), and to wield a weapon a quest just gave.
 */
function installNewcomerHints(game: Game) {
  const net = game.net;
  let toldEat = false;
  net.on("player:sync", (s) => {
    if (toldEat || s.health > s.maxHealth * 0.4 || s.health <= 0) return;
    const food = s.inventory.find((i) => (game.item(i.itemId)?.healAmount ?? 0) > 0);
    if (!food) return;
    toldEat = true;
    game.log(
      `Your health is low (${s.health}/${s.maxHealth}): eat the ${game.itemName(food.itemId).toLowerCase()} in your pack (click it to eat it).`,
      "system",
    );
  });
  net.on("quest:completed", (q) => {
    const weapon = q.rewards.items.find((i) => game.item(i.itemId)?.equipSlot === "weapon" || game.item(i.itemId)?.equipSlot === "2h");
    if (weapon) game.log(`Wield your new ${game.itemName(weapon.itemId).toLowerCase()}: click it in your pack to wield it.`, "system");
  });
}
