import { h } from "../dom.js";
import type { Game } from "../game.js";

/** The refusals a report may get (the rest of `error` is about something else). */
const REPORT_ERRORS = new Set(["UNKNOWN_PLAYER", "SELF_REPORT", "RATE_LIMITED", "REASON_REQUIRED", "REASON_TOO_LONG", "INVALID_PAYLOAD", "INTERNAL"]);

/**
 * Reporting a player to the staff (`player:report`): a name (filled in from a player's menu) and
 * a reason; the server attaches the chat between you that it saw, and its answer (`notice`
 * REPORTED, or the refusal) is shown in the window.
 */
export function installReport(game: Game) {
  const net = game.net;
  let waiting = false;

  const answer = h("p", { className: "answer" });
  const name = h("input", { maxLength: 12, placeholder: "Player's name", autocomplete: "off", className: "report-name" });
  const reason = h("textarea", { maxLength: 500, rows: 3, placeholder: "What did they do?", className: "report-reason" });
  const send = h("button", { type: "submit", textContent: "Send report" });
  const say = (text: string, error: boolean) => {
    answer.textContent = text;
    answer.className = `answer${error ? " error" : ""}`;
  };
  const form = h(
    "form",
    { className: "report" },
    h("label", {}, "Name ", name),
    h("label", {}, "Reason ", reason),
    answer,
    h("div", { className: "actions" }, send, h("button", { type: "button", textContent: "Close", onclick: () => game.closeOverlay("report") })),
  );
  form.onsubmit = (ev) => {
    ev.preventDefault();
    const who = name.value.trim();
    const why = reason.value.trim();
    if (!who) return say("Name the player you report", true);
    if (!why) return say("Say what they did", true);
    waiting = true;
    send.disabled = true;
    say("Sending…", false);
    net.send("player:report", { name: who, reason: why });
  };

  game.report = (target) => {
    waiting = false;
    send.disabled = false;
    name.value = target;
    reason.value = "";
    say("The staff see your report and the chat between you.", false);
    game.overlay("report", "Report a player", form);
    (target ? reason : name).focus();
  };

  net.on("notice", (n) => {
    if (n.code !== "REPORTED") return;
    waiting = false;
    send.disabled = false;
    reason.value = "";
    say(n.message, false);
  });
  net.on("error", (e) => {
    if (!waiting || !REPORT_ERRORS.has(e.code)) return;
    waiting = false;
    send.disabled = false;
    say(`${e.message} (${e.code})`, true);
  });
}
