import { ApiError, loadAreas, loadCatalogue, loadMap, serverUrl, type AreaInfo } from "../../api.js";
import { installBroadcasts } from "../../broadcasts.js";
import { byId, h } from "../../dom.js";
import { Game, type LogKind } from "../../game.js";
import { Minimap } from "../../minimap.js";
import { equipmentPanel } from "../../panels/equipment.js";
import { inventoryPanel } from "../../panels/inventory.js";
import type { Panel } from "../../panels/panel.js";
import { questsPanel } from "../../panels/quests.js";
import { skillsPanel } from "../../panels/skills.js";
import { GroundPlan } from "../../render/ground.js";
import { WorldView } from "../../view.js";
import { followActivity, readActivity, type ActivityBody, type ActivityLine } from "./activityFeed.js";
import { installReadOnly } from "./readOnly.js";
import { WatchConnection, type WatchEnd } from "./watchConnection.js";
import { readWatchToken } from "./watchLink.js";
import { goalName, WatchPanel, type WatchInfo } from "./watchPanel.js";

/** How often the agent's goal is read again while watching, and how often, while it is away, whether it plays again. */
const POLL_MS = 5_000;
const AWAY_POLL_MS = 3_000;
/** The wait before the activity stream is opened again after it ended or broke. */
const STREAM_RETRY_MS = 3_000;
/** Activity lines kept in the page. */
const LINES_KEPT = 200;
/** Lines in the log under the map. */
const LOG_LINES = 200;

/** A readable line for whatever went wrong. */
function describe(err: unknown): string {
  if (err instanceof ApiError) return `${err.message} (${err.code})`;
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

/** A refusal that trying again cannot mend: the token expired or is not good for this agent, the agent is gone. */
function final(err: unknown): boolean {
  const { status, code } = err as { status?: unknown; code?: unknown };
  const s = status ?? code;
  return s === 401 || s === 403 || (err instanceof ApiError && s === 404);
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Watch mode (the page opened at a watch link, `/#watch=<token>`): no sign-in and no character.
 * The token's agent is looked up (GET /api/agents/:agentId/activity), its world joined as a
 * spectator (watchConnection.ts), and the page draws what the agent sees, the camera on it, with
 * its pack, gear, skills and quests, and the watch panel (its goal, what it is doing, its
 * activity's lines from the stream). Nothing acts: the acting parts are put away or stopped
 * (readOnly.ts). When the agent leaves the world the banner says so, and the page watches again
 * as soon as the activity feed says it plays.
 */
export async function startWatching(token: string) {
  const mode = byId("login-mode");
  const error = byId("login-error");
  byId("name-row").hidden = true;
  byId("idp-row").hidden = true;
  byId("play").hidden = true;
  mode.textContent = "Opening the watch link…";
  try {
    const claims = readWatchToken(token);
    const [map, catalogue, areas] = await Promise.all([loadMap(), loadCatalogue(), loadAreas()]);
    let net: WatchConnection | undefined;
    const first = await whenPlaying(
      token,
      claims.agentId,
      async (world) => void (net = await WatchConnection.watch(serverUrl(), token, world)),
      (text) => (mode.textContent = text),
    );
    watch(net!, first, new Game(net!, catalogue, map), areas, claims.agentId);
  } catch (err) {
    mode.textContent = "This page watches an agent through its watch link.";
    error.textContent = `Could not watch: ${describe(err)}`;
  }
}

/**
 * Wait until the agent plays (GET …/activity: `online`, its `world`), then `join` that world; while
 * it does not, or the join is refused for now (it left on the way), `waiting` says so and the feed
 * is asked again. Throws when the token is refused.
 */
async function whenPlaying(token: string, agentId: string, join: (world: number) => Promise<void>, waiting: (text: string) => void): Promise<ActivityBody> {
  for (;;) {
    let body: ActivityBody | undefined;
    try {
      body = await readActivity(token, agentId);
      if (body.agent.online && body.agent.world !== null) {
        await join(body.agent.world);
        return body;
      }
      waiting(`${body.agent.name} is not in the world right now: the page watches it as soon as it plays.`);
    } catch (err) {
      if (final(err)) throw err;
      waiting(`${body?.agent.name ?? "The agent"} could not be watched yet (${describe(err)}): trying again…`);
    }
    await wait(AWAY_POLL_MS);
  }
}

/** The page, once the first watch began. */
function watch(net: WatchConnection, first: ActivityBody, game: Game, areas: AreaInfo[], agentId: string) {
  const token = net.token;
  const info: WatchInfo = { activity: first, lines: [], watching: true, status: "" };
  const name = () => info.activity?.agent.name ?? net.watched.name;
  let over = false;
  /** Stops the activity stream. */
  const stream = new AbortController();
  /** The next read of the feed. */
  let timer: ReturnType<typeof setTimeout> | undefined;

  byId("login").hidden = true;
  const root = byId("game");
  root.hidden = false;
  root.classList.add("watching");
  installReadOnly(root);
  const panel = new WatchPanel(info);
  const redraw = installWatchTabs(game, [panel, inventoryPanel, equipmentPanel, skillsPanel, questsPanel]);
  installWatchLog(byId("chat"), game);
  installBroadcasts(game);
  const view = new WorldView(byId<HTMLCanvasElement>("world"), game, areas, null);
  const minimap = new Minimap(byId<HTMLCanvasElement>("minimap"), game, new GroundPlan(game.map, areas), view, null);
  view.afterFrame.push((now) => minimap.draw(now));
  byId("zoom-in").onclick = () => view.zoom(1);
  byId("zoom-out").onclick = () => view.zoom(-1);
  byId("minimap").title = "Where the agent is";
  // The server's content was reloaded: read the game data again and draw the world from it.
  net.on("system:broadcast", (b) => {
    if (b.kind !== "content") return;
    void Promise.all([loadMap(true), loadCatalogue(true), loadAreas(true)])
      .then(([newMap, newCatalogue, newAreas]) => {
        game.setData(newCatalogue, newMap);
        view.setGround(newAreas);
        minimap.paintWorld(new GroundPlan(newMap, newAreas));
        game.changed();
      })
      .catch((err) => game.log(`The world's new content could not be read: ${describe(err)}`, "error"));
  });

  // The banner over the map: whom the page watches, and when the watch ended.
  const banner = h("div", { className: "watch-banner watch-ok", role: "status" });
  byId("world").parentElement!.append(banner);
  const setStatus = (text: string, watching: boolean) => {
    info.status = text;
    info.watching = watching;
    banner.textContent = text;
    banner.classList.toggle("away", !watching);
    redraw();
  };
  /** Why the last watch ended (said until it is watched again). */
  let endedWhy = "";
  const watchingNow = () => setStatus(`Watching ${name()}`, true);
  const away = (then: string) => setStatus(`Watching ${name()} ended: ${endedWhy || "it is not in the world"}. ${then}`, false);
  watchingNow();
  installWatchStatus(game);
  net.onDropped = (type) => game.log(`You are watching ${name()}: nothing you do here acts (${type} not sent).`, "error");

  // The lines of its activity, in order, each once (the stream and the feed may both bring one).
  const seen = new Set<number>();
  let lastSeq = 0;
  const addLines = (lines: ActivityLine[]) => {
    let added = false;
    for (const line of lines) {
      if (seen.has(line.seq)) continue;
      seen.add(line.seq);
      info.lines.push(line);
      lastSeq = Math.max(lastSeq, line.seq);
      added = true;
    }
    if (!added) return false;
    info.lines.sort((a, b) => a.seq - b.seq);
    for (const gone of info.lines.splice(0, Math.max(0, info.lines.length - LINES_KEPT))) seen.delete(gone.seq);
    return true;
  };
  addLines(first.activity);

  /** The watch cannot go on (the token expired, or is refused): said once, and nothing more is asked. */
  const finish = (why: string) => {
    if (over) return;
    over = true;
    stream.abort();
    clearTimeout(timer);
    setStatus(`Watching ${name()} ended: ${why}`, false);
  };

  // The activity's stream: each new line as it is written; opened again after it ends or breaks.
  const follow = async () => {
    while (!over) {
      try {
        await followActivity(
          token,
          agentId,
          lastSeq,
          (line) => {
            if (!addLines([line])) return;
            // A new goal: its figures are read at once, not at the next poll.
            if (line.kind === "goal") void refresh();
            else redraw();
          },
          stream.signal,
        );
      } catch (err) {
        if (over || stream.signal.aborted) return;
        if (final(err)) return finish(describe(err));
      }
      await wait(STREAM_RETRY_MS);
    }
  };
  void follow();

  // The feed, every few seconds: the goal and the agent's state, the lines the stream may have
  // missed; and after the watch ended, whether the agent plays again (then it is watched again).
  let reading = false;
  let again = false;
  const refresh = async () => {
    if (over) return;
    if (reading) return void (again = true);
    reading = true;
    clearTimeout(timer);
    try {
      const body = await readActivity(token, agentId, lastSeq || undefined);
      info.activity = body;
      addLines(body.activity);
      if (!net.watching) {
        if (body.agent.online && body.agent.world !== null) {
          away(`It plays again: joining world ${body.agent.world}…`);
          await net.watchIn(body.agent.world);
          game.log(`${name()} plays again: watching it in world ${body.agent.world}.`);
          watchingNow();
        } else away("Watching again as soon as it plays…");
      }
      redraw();
    } catch (err) {
      if (final(err)) finish(describe(err));
      else if (!net.watching) away(`Could not watch it again yet (${describe(err)}): trying again…`);
    } finally {
      reading = false;
    }
    if (over) return;
    if (again) {
      again = false;
      return void refresh();
    }
    timer = setTimeout(() => void refresh(), net.watching ? POLL_MS : AWAY_POLL_MS);
  };
  timer = setTimeout(() => void refresh(), POLL_MS);

  net.onEnded((end: WatchEnd) => {
    game.log(`${end.message}.`, "system");
    if (end.reason === "expired") return finish(end.message);
    endedWhy = end.message;
    away("Watching again as soon as it plays…");
    void refresh();
  });

  // Stop watching: back to the page's start (the watch link left behind).
  const stop = byId<HTMLButtonElement>("logout");
  stop.textContent = "Stop watching";
  stop.title = "Stop watching and go to the start page";
  stop.classList.add("watch-ok");
  stop.onclick = () => {
    over = true;
    stream.abort();
    void net.leave().finally(() => {
      history.replaceState(null, "", location.pathname);
      location.reload();
    });
  };
  byId("run").hidden = true;

  game.log(`Watching ${name()}: the map follows it; its goal and what it does are in the Watch panel. Nothing you do here acts.`);
  // A handle for tools and tests that read the page (README, The web client): what the watch knows.
  (window as unknown as { arena: unknown }).arena = {
    game,
    view,
    watch: {
      agentId,
      info,
      /** Room messages the page tried to send (none is sent). */
      dropped: () => net.dropped,
      watching: () => net.watching,
    },
  };
}

/** The tabs: the watch panel first, then the agent's own panels (read-only). Returns a redraw. */
function installWatchTabs(game: Game, panels: Panel[]): () => void {
  const tabs = byId("tabs");
  const panel = byId("panel");
  let active = panels[0]!;
  const draw = () => {
    for (const b of tabs.querySelectorAll("button")) b.classList.toggle("active", b.textContent === active.name);
    panel.replaceChildren(active.render(game));
  };
  game.showTab = (name) => {
    active = panels.find((p) => p.name === name) ?? active;
    draw();
  };
  tabs.replaceChildren(...panels.map((p) => h("button", { textContent: p.name, onclick: () => game.showTab(p.name) })));
  game.onChange(draw);
  draw();
  return draw;
}

/** The status line and the life orb, from the agent's state. */
function installWatchStatus(game: Game) {
  const status = byId("status");
  const life = byId("life");
  game.onChange(() => {
    const me = game.me;
    const here = game.net.state.players.get(me.id);
    const at = here ? `${here.x}, ${here.z}` : `${me.position.x}, ${me.position.z}`;
    status.textContent = `${me.name} · ${at} · life ${me.health}/${me.maxHealth}${me.action ? ` · ${me.action}` : ""}`;
    life.textContent = String(me.health);
    life.style.setProperty("--full", `${Math.round((100 * Math.max(0, me.health)) / Math.max(1, me.maxHealth))}%`);
  });
  game.changed();
}

/** The log under the map, read-only (no chat box): what the agent hears and is told. */
function installWatchLog(root: HTMLElement, game: Game) {
  const net = game.net;
  const log = h("div", { className: "log", role: "log" });
  root.replaceChildren(log);
  game.logTo = (text: string, kind: LogKind) => {
    log.append(h("div", { className: kind }, text));
    while (log.childElementCount > LOG_LINES) log.firstElementChild!.remove();
    log.scrollTop = log.scrollHeight;
  };
  net.on("chat:message", (m) => {
    if (m.channel === "private") return game.log(`${m.fromName} to ${m.toName ?? game.me.name}: ${m.message}`, "private");
    game.log(`${m.channel === "world" ? "[world] " : ""}${m.fromName}: ${m.message}`, m.channel);
  });
  net.on("dialogue:node", (node) => game.log(`${node.npcName}: ${node.text}`, "local"));
  net.on("store:open", (store) => game.log(`${game.me.name} looks at ${store.name}.`));
  net.on("goalOverride", (o) => o.goal && game.log(`New goal: ${goalName(game, o.goal)}.`));
}
