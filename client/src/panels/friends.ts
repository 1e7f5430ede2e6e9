import { callAs } from "../api.js";
import { h } from "../dom.js";
import type { Game } from "../game.js";
import type { Panel } from "./panel.js";

/** GET /api/player/friends, /friends/requests and /ignore (docs/API.md), the parts shown. */
interface Friend {
  id: string;
  name: string;
  combatLevel: number;
  online: boolean;
  world: number | null;
}
interface Request {
  id: string;
  from?: { name: string } | string;
  to?: { name: string } | string;
}
interface Lists {
  friends: Friend[];
  incoming: Request[];
  outgoing: Request[];
  ignored: Array<{ id: string; name: string; online: boolean }>;
}

let lists: Lists | null = null;
let status = "";
/** The name being typed, and whether its field has the focus: kept across the panel's redraws (each change of the player redraws it). */
let typed = "";
let typing = false;
let loading: Promise<void> | null = null;
let timer: ReturnType<typeof setInterval> | undefined;

const nameOf = (r: { name: string } | string | undefined) => (typeof r === "string" ? r : (r?.name ?? "?"));

async function load(game: Game) {
  const as = <T>(method: string, path: string) => callAs<T>(game.net.token, method, path);
  const [f, r, i] = await Promise.all([
    as<{ friends: Friend[] }>("GET", "/api/player/friends"),
    as<{ incoming: Request[]; outgoing: Request[] }>("GET", "/api/player/friends/requests"),
    as<{ ignored: Lists["ignored"] }>("GET", "/api/player/ignore"),
  ]);
  lists = { friends: f.friends, incoming: r.incoming, outgoing: r.outgoing, ignored: i.ignored };
}

/** Read the lists again and draw the panel (while it is open, every 15 s). */
function refresh(game: Game) {
  loading ??= load(game)
    .catch((err) => void (status = `Could not read your lists: ${err instanceof Error ? err.message : String(err)}`))
    .finally(() => {
      loading = null;
      game.changed();
    });
}

/** Do a change, say how it went, and read the lists again. */
async function act(game: Game, method: string, path: string, body: unknown, done: string) {
  try {
    await callAs(game.net.token, method, path, body);
    status = done;
  } catch (err) {
    status = err instanceof Error ? err.message : String(err);
  }
  refresh(game);
}

/**
 * Friends and the ignore list, over the REST routes (docs/API.md): each friend online or not and
 * in which world, a private message to one, requests to accept or decline, and the players ignored.
 */
export const friendsPanel: Panel = {
  name: "Friends",
  render(game) {
    if (!lists) refresh(game);
    clearInterval(timer);
    timer = setInterval(() => (document.querySelector("[data-panel=Friends]") ? refresh(game) : clearInterval(timer)), 15_000);
    const name = h("input", { placeholder: "Name", maxLength: 12, className: "friend-name", value: typed });
    name.addEventListener("input", () => (typed = name.value));
    name.addEventListener("focus", () => (typing = true));
    name.addEventListener("blur", () => (typing = name.isConnected ? false : typing));
    if (typing) queueMicrotask(() => name.isConnected && name.focus());
    const add = (path: string, done: string) => {
      const n = name.value.trim();
      if (!n) return;
      typed = "";
      void act(game, "POST", path, { name: n }, done.replace("$", n));
    };
    const l = lists;
    return h(
      "div",
      { dataset: { panel: "Friends" } },
      h("h3", {}, `Friends${l ? ` (${l.friends.filter((f) => f.online).length} online)` : ""}`),
      h(
        "div",
        { className: "actions" },
        name,
        h("button", { textContent: "Add friend", onclick: () => add("/api/player/friends/request", "Friend request sent to $") }),
        h("button", { textContent: "Ignore", onclick: () => add("/api/player/ignore", "You ignore $") }),
      ),
      status ? h("div", { className: "status-line" }, status) : null,
      !l
        ? h("p", {}, "Loading…")
        : h(
            "div",
            { className: "rows friends" },
            l.friends.length === 0 ? h("div", {}, "No friends yet: add one by name.") : null,
            ...l.friends.map((f) =>
              h(
                "div",
                { dataset: { friend: f.name } },
                h("span", {}, h("span", { className: `dot ${f.online ? "online" : "offline"}` }), ` ${f.name}`),
                h("span", { className: "where" }, f.online ? (f.world !== null ? `World ${f.world}` : "online") : "offline"),
                h(
                  "span",
                  {},
                  h("button", { textContent: "Message", title: `Private message to ${f.name}`, onclick: () => game.whisper(f.name) }),
                  h("button", {
                    textContent: "✕",
                    title: `Remove ${f.name}`,
                    onclick: () => void act(game, "DELETE", `/api/player/friends/${f.id}`, undefined, `${f.name} removed`),
                  }),
                ),
              ),
            ),
            ...l.incoming.map((r) =>
              h(
                "div",
                { className: "request" },
                h("span", {}, `${nameOf(r.from)} asks to be your friend`),
                h(
                  "span",
                  {},
                  h("button", {
                    textContent: "Accept",
                    onclick: () => void act(game, "POST", "/api/player/friends/accept", { requestId: r.id }, "Friend added"),
                  }),
                  h("button", {
                    textContent: "Decline",
                    onclick: () => void act(game, "POST", "/api/player/friends/decline", { requestId: r.id }, "Declined"),
                  }),
                ),
              ),
            ),
            ...l.outgoing.map((r) => h("div", { className: "request" }, h("span", {}, `Asked ${nameOf(r.to)}: waiting`))),
          ),
      h("h3", {}, "Ignore list"),
      l
        ? h(
            "div",
            { className: "rows" },
            l.ignored.length === 0 ? h("div", {}, "Nobody.") : null,
            ...l.ignored.map((i) =>
              h(
                "div",
                { dataset: { ignored: i.name } },
                h("span", {}, i.name),
                h("button", {
                  textContent: "Unignore",
                  onclick: () => void act(game, "DELETE", `/api/player/ignore/${i.id}`, undefined, `${i.name} unignored`),
                }),
              ),
            ),
          )
        : null,
    );
  },
};
