import { ApiError, loadAreas, loadCatalogue, loadMap, loginAsGuest, loginWithIdp, publicEnv, serverUrl, type Login } from "./api.js";
import { installBroadcasts } from "./broadcasts.js";
import { installChat } from "./chat.js";
import { Connection } from "./connection.js";
import { installDisconnects } from "./disconnects.js";
import { byId, h } from "./dom.js";
import { Game } from "./game.js";
import { Guidance } from "./guidance.js";
import { installHint } from "./hint.js";
import { Minimap } from "./minimap.js";
import { friendsPanel } from "./panels/friends.js";
import { optionsPanel } from "./panels/options.js";
import { GroundPlan } from "./render/ground.js";
import { onSettings, settings, setSettings } from "./settings.js";
import { bankPanel } from "./panels/bank.js";
import { combatPanel } from "./panels/combat.js";
import { equipmentPanel } from "./panels/equipment.js";
import { inventoryPanel } from "./panels/inventory.js";
import type { Panel } from "./panels/panel.js";
import { prayerPanel } from "./panels/prayer.js";
import { productionPanel } from "./panels/production.js";
import { questsPanel } from "./panels/quests.js";
import { skillsPanel } from "./panels/skills.js";
import { installStaffPanel } from "./staffPanel.js";
import { WorldView } from "./view.js";
import { installDuel } from "./windows/duel.js";
import { installNpcWindows } from "./windows/npcs.js";
import { installReport } from "./windows/report.js";
import { installTrade } from "./windows/trade.js";

const PANELS: Panel[] = [
  inventoryPanel,
  equipmentPanel,
  skillsPanel,
  questsPanel,
  bankPanel,
  combatPanel,
  prayerPanel,
  productionPanel,
  friendsPanel,
  optionsPanel,
];
const TOKEN_KEY = "arena.token";

/** A readable line for whatever went wrong joining. */
function describe(err: unknown): string {
  if (err instanceof ApiError) return `${err.message} (${err.code})`;
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

/** Sign in: a guest in anonymous mode, the identity provider's token when the server has one. */
async function signIn(): Promise<Login> {
  const idp = Boolean(publicEnv().PUBLIC_IDP_APP_ID);
  if (idp) return loginWithIdp(byId<HTMLInputElement>("idp-token").value.trim());
  const saved = sessionStorage.getItem(TOKEN_KEY);
  if (saved) return JSON.parse(saved) as Login;
  const login = await loginAsGuest();
  sessionStorage.setItem(TOKEN_KEY, JSON.stringify(login));
  return login;
}

function installTabs(game: Game) {
  const tabs = byId("tabs");
  const panel = byId("panel");
  let active = PANELS[0]!;
  const draw = () => {
    for (const b of tabs.querySelectorAll("button")) b.classList.toggle("active", b.textContent === active.name);
    panel.replaceChildren(active.render(game));
  };
  game.showTab = (name) => {
    active = PANELS.find((p) => p.name === name) ?? active;
    draw();
  };
  tabs.replaceChildren(...PANELS.map((p) => h("button", { textContent: p.name, onclick: () => game.showTab(p.name) })));
  game.onChange(draw);
  game.guidance?.onChange(draw);
  onSettings(draw);
  draw();
}

function installStatus(game: Game) {
  const status = byId("status");
  const life = byId("life");
  const run = byId<HTMLButtonElement>("run");
  game.onChange(() => {
    const me = game.me;
    status.textContent = `${me.name} · ${me.position.x}, ${me.position.z} · life ${me.health}/${me.maxHealth}${me.action ? ` · ${me.action}` : ""}`;
    life.textContent = String(me.health);
    life.style.setProperty("--full", `${Math.round((100 * Math.max(0, me.health)) / Math.max(1, me.maxHealth))}%`);
  });
  const showRun = () => run.classList.toggle("on", settings.run);
  run.onclick = () => setSettings({ run: !settings.run });
  onSettings(showRun);
  showRun();
  byId("logout").onclick = () => void game.logout();
  game.changed();
}

/**
 * A read-only test aid (README, The web client): where the page draws the quest markers now, in
 * page coordinates, so a test can click them as a person would. It reads; it never acts.
 */
function installTestAid(view: WorldView, minimap: Minimap) {
  const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
  (window as unknown as { arenaDrawn: unknown }).arenaDrawn = Object.freeze({
    markers: () => copy([...view.drawnMarkers, ...minimap.drawnMarkers]),
    /** The npcs and players drawn now: `{kind, id, name, x, y}`, page coordinates of their bodies. */
    figures: () => copy(view.figuresOnPage()),
    /** The player's tile and whether it is on its way somewhere. */
    player: () => {
      const me = view.game.net.state.players?.get(view.game.net.playerId);
      return me ? { x: me.x, z: me.z, moving: me.moving } : null;
    },
    frameMs: () => copy(view.frameMs.slice(-120)),
  });
}

async function play() {
  const button = byId<HTMLButtonElement>("play");
  const error = byId("login-error");
  button.disabled = true;
  error.textContent = "";
  try {
    const login = await signIn();
    const [map, catalogue, areas] = await Promise.all([loadMap(), loadCatalogue(), loadAreas()]);
    const name = byId<HTMLInputElement>("name").value.trim();
    let net: Connection;
    try {
      net = await Connection.join(serverUrl(), login.token, name ? { name } : {});
    } catch (err) {
      // A guest token from an earlier visit may be gone (the server restarted or removed the guest).
      sessionStorage.removeItem(TOKEN_KEY);
      throw err;
    }
    const game = new Game(net, catalogue, map);
    byId("login").hidden = true;
    byId("game").hidden = false;
    installChat(byId("chat"), game);
    installTabs(game);
    installTrade(game);
    installDuel(game);
    installNpcWindows(game);
    installReport(game);
    installBroadcasts(game);
    installStaffPanel(game);
    const guidance = new Guidance(game);
    game.guidance = guidance;
    const view = new WorldView(byId<HTMLCanvasElement>("world"), game, areas, guidance);
    const minimap = new Minimap(byId<HTMLCanvasElement>("minimap"), game, new GroundPlan(map, areas), view, guidance);
    view.afterFrame.push((now) => minimap.draw(now));
    byId("zoom-in").onclick = () => view.zoom(1);
    byId("zoom-out").onclick = () => view.zoom(-1);
    // The server's content was reloaded: read the game data again and draw the world from it.
    net.on("system:broadcast", (b) => {
      if (b.kind !== "content") return;
      void Promise.all([loadMap(true), loadCatalogue(true), loadAreas(true)])
        .then(([newMap, newCatalogue, newAreas]) => {
          game.setData(newCatalogue, newMap);
          guidance.indexResources();
          view.setGround(newAreas);
          minimap.paintWorld(new GroundPlan(newMap, newAreas));
          game.changed();
        })
        .catch((err) => game.log(`The world's new content could not be read: ${describe(err)}`, "error"));
    });
    installHint(game);
    installTestAid(view, minimap);
    void guidance.refresh();
    installStatus(game);
    installDisconnects(game);
    document.addEventListener("click", (ev) => {
      const menu = byId("menu");
      if (!menu.contains(ev.target as Node) && !(ev.target instanceof HTMLCanvasElement) && !(ev.target as HTMLElement).closest?.(".slot")) menu.hidden = true;
    });
    game.log(`Welcome to the world, ${game.me.name}. Click to walk; right-click for more; the yellow arrow shows where your quest goes next.`);
    // A handle for tools and tests that drive the page: where things are, what the client knows.
    (window as unknown as { arena: unknown }).arena = { game, view };
  } catch (err) {
    error.textContent = `Could not join the world: ${describe(err)}`;
    button.disabled = false;
  }
}

function start() {
  const idp = Boolean(publicEnv().PUBLIC_IDP_APP_ID);
  byId("login-mode").textContent = idp ? "Sign in with your identity provider's access token." : "Play as a guest: no account needed.";
  byId("idp-row").hidden = !idp;
  const button = byId<HTMLButtonElement>("play");
  button.disabled = false;
  button.onclick = () => void play();
}

start();
