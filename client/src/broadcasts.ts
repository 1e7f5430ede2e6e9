import type { ServerMessage } from "../../src/protocol/index.js";
import { byId, h } from "./dom.js";
import type { Game } from "./game.js";

/** How long a staff message stays across the top. */
const SHOWN_MS = 8_000;
/** A restart this close stays across the top, counting down, until it comes. */
const STAYS_FROM_S = 120;

/** "4:05" from seconds. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * The staff's messages (`system:broadcast`): a banner across the top of the view for a few seconds,
 * and a line in the chat. A scheduled restart's steps show its countdown, ticking every second.
 */
export function installBroadcasts(game: Game) {
  const banner = byId("broadcast");
  let hideTimer: ReturnType<typeof setTimeout> | undefined;
  let tickTimer: ReturnType<typeof setInterval> | undefined;

  const hide = () => {
    clearTimeout(hideTimer);
    clearInterval(tickTimer);
    banner.hidden = true;
    banner.replaceChildren();
  };

  const show = (b: ServerMessage<"system:broadcast">) => {
    hide();
    const restart = b.kind === "restart";
    const title = restart ? "Server restart" : `Message from ${b.from}${b.world !== null ? ` to world ${b.world}` : ""}`;
    const countdown = h("div", { className: "countdown" });
    banner.className = `broadcast-banner${restart ? " restart" : ""}`;
    banner.replaceChildren(h("b", {}, title), h("div", { className: "message" }, b.message), ...(restart ? [countdown] : []));
    banner.hidden = false;
    if (!restart) {
      hideTimer = setTimeout(hide, SHOWN_MS);
      return;
    }
    // Counted from restartAt (the server's clock), else from the seconds the step said were left.
    const at = b.restartAt ? Date.parse(b.restartAt) : Date.now() + (b.secondsLeft ?? 0) * 1000;
    const tick = () => (countdown.textContent = `Restarting in ${clock((at - Date.now()) / 1000)}`);
    tick();
    tickTimer = setInterval(tick, 1000);
    if ((b.secondsLeft ?? 0) > STAYS_FROM_S) hideTimer = setTimeout(hide, SHOWN_MS);
  };

  game.net.on("system:broadcast", (b) => {
    game.log(b.kind === "restart" ? `[restart] ${b.message}` : `[broadcast] ${b.from}: ${b.message}`, "broadcast");
    show(b);
  });
  // A new connection (after the restart) takes the countdown down.
  game.net.onRoom(hide);
}
