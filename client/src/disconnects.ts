import { CloseCode } from "@colyseus/sdk";
import { CLOSE_CODES } from "../../src/protocol/codes.js";
import { loginRefused } from "./api.js";
import { byId } from "./dom.js";
import type { Game } from "./game.js";
import { forgetLogin } from "./session.js";

/** The first wait before joining again after a restart, and the longest between tries. */
const RESTART_WAIT_MS = 3_000;
const RESTART_MAX_WAIT_MS = 30_000;
/** Tries to join again after a restart before the page gives up. */
const RESTART_TRIES = 20;
/** After the world moved (close 4103): quick tries first, this far apart (and up to twice), before the restart's pace. */
const MOVED_WAIT_MS = 150;
const MOVED_TRIES = 40;

/** A readable line for a failure. */
function describe(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

/** Put the game away and show why it ended: a ban (its reason and end), a kick, a failed restart. */
export function showEnded(title: string, message: string) {
  byId("game").hidden = true;
  byId("login").hidden = true;
  byId("ended-title").textContent = title;
  byId("ended-message").textContent = message;
  byId("ended-again").onclick = () => location.reload();
  byId("ended").hidden = false;
}

/**
 * What the page does when the connection drops or the server closes it: a drop reconnects (the
 * SDK's own reconnection), and when that fails the page joins again as the same character; a ban
 * (error BANNED, then close 4102) ends the game on a screen giving the reason and the end, and
 * never reconnects; a kick says who removed the player; a take-over by another login says so; a
 * restart (close 1012) says the server is restarting and joins again after a short wait, the same
 * character, with the same panels; a world that moved to another server process (close 4103, an
 * upgrade) is joined again at once, quietly. A login the server refuses on the way back (401) ends on a
 * screen that says why, and its button starts anew.
 */
export function installDisconnects(game: Game) {
  const net = game.net;
  const banner = byId("banner");
  const show = (text: string | null) => {
    banner.hidden = text === null;
    banner.textContent = text ?? "";
  };
  // The server's sentence for the close that follows it.
  let banned: string | null = null;
  let kicked: string | null = null;
  net.on("error", (e) => {
    if (e.code === "BANNED") banned = e.message;
  });
  net.on("notice", (n) => {
    // The kicked player's is the last before its close (a staff member's own kicks are answered KICKED too).
    if (n.code === "KICKED") kicked = n.message;
  });

  /**
   * Join again as the same character, spread out and slower each try: after a restart (1012), and
   * after a drop the SDK's own reconnection could not mend (the server was restarted without one,
   * or the connection was away too long).
   */
  const rejoin = async (why: string, restart = false, moved = false) => {
    let wait = RESTART_WAIT_MS;
    for (let attempt = 1; attempt <= RESTART_TRIES + (moved ? MOVED_TRIES : 0); attempt++) {
      // Spread out, so that every player does not knock at the same moment. A moved world runs again
      // elsewhere within a second or so: knock soon and often first, as after a restart then.
      const quick = moved && attempt <= MOVED_TRIES;
      const ms = quick ? MOVED_WAIT_MS * (1 + Math.random()) : wait + Math.random() * RESTART_WAIT_MS;
      if (!quick) show(`${why}: reconnecting in ${Math.ceil(ms / 1000)} s…`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      if (!quick) show(`${why}: reconnecting…${attempt > 1 ? ` (try ${attempt})` : ""}`);
      try {
        await net.rejoin();
        show(null);
        if (!moved) game.log(restart ? "Reconnected after the server's restart." : "Reconnected: you are back in the world.");
        return;
      } catch (err) {
        if (/banned/i.test(describe(err))) return showEnded("Banned", describe(err));
        // The login itself is refused (expired, its account removed): trying again cannot help.
        if (loginRefused(err)) {
          forgetLogin();
          return showEnded("Signed out", `Your sign-in can no longer be used (${describe(err)}). Back to the start to play again.`);
        }
        if (quick) continue;
        game.log(`Could not reconnect yet: ${describe(err)}`, "error");
        wait = Math.min(wait * 2, RESTART_MAX_WAIT_MS);
      }
    }
    showEnded("Disconnected", "The server did not come back. Try again later.");
  };

  net.onRoom((room) => {
    room.onDrop(() => show("Connection lost: reconnecting…"));
    room.onReconnect(() => show(null));
    room.onLeave((code: number) => {
      if (code === CLOSE_CODES.BANNED) return showEnded("Banned", banned ?? "Your account is banned.");
      if (code === CLOSE_CODES.KICKED) return showEnded("Removed from the world", kicked ?? "A member of the staff removed you from the world.");
      if (code === CLOSE_CODES.RESTART) return void rejoin("The server is restarting", true);
      // The world moved to another server process (an upgrade): back in it at once, nothing to say.
      if (code === CLOSE_CODES.WORLD_MOVED) return void rejoin("The world is moving", false, true);
      if (code === CLOSE_CODES.REPLACED) return showEnded("Playing elsewhere", "Your character was taken over by another login (another tab or device).");
      // The page's own leave (Log out) reloads it; a flood's close is not mended by knocking again.
      if (code === CloseCode.CONSENTED || code === CloseCode.WITH_ERROR) return show(`Disconnected (${code}). Reload the page to play again.`);
      void rejoin("Connection lost");
    });
  });
}
