import {
  ApiError,
  loginRefused,
  loadAreas,
  loadCatalogue,
  loadMap,
  loginAsGuest,
  loginWithIdp,
  publicEnv,
  refreshLogin,
  serverUrl,
  type Login,
} from "./api.js";
import { installBroadcasts } from "./broadcasts.js";
import { installChat } from "./chat.js";
import { Connection } from "./connection.js";
import { installDisconnects } from "./disconnects.js";
import { byId, h } from "./dom.js";
import { Game } from "./game.js";
import { Guidance } from "./guidance.js";
import { installHint } from "./hint.js";
import { focusLogin, installKeyboard, installLoginKeys } from "./keyboard.js";
import { installMenuDismissal } from "./menus.js";
import { Minimap } from "./minimap.js";
import { friendsPanel } from "./panels/friends.js";
import { optionsPanel } from "./panels/options.js";
import { GroundPlan } from "./render/ground.js";
import { forgetLogin, saveLogin, savedLogin, setSignsBackIn, signsBackIn, type SavedLogin } from "./session.js";
import { onSettings, settings, setSettings } from "./settings.js";
import { combatPanel } from "./panels/combat.js";
import { equipmentPanel } from "./panels/equipment.js";
import { inventoryPanel } from "./panels/inventory.js";
import type { Panel } from "./panels/panel.js";
import { prayerPanel } from "./panels/prayer.js";
import { productionPanel } from "./panels/production.js";
import { questsPanel } from "./panels/quests.js";
import { skillsPanel } from "./panels/skills.js";
import { installStaffPanel } from "./staffPanel.js";
import { installTouch, pointerWords } from "./touch.js";
import { WorldView } from "./view.js";
import { installBankWindow } from "./windows/bank.js";
import { installDuel } from "./features/duel/duelWindow.js";
import { installNpcWindows } from "./windows/npcs.js";
import { installStoreWindow } from "./windows/store.js";
import { installReport } from "./windows/report.js";
import { installQuestComplete } from "./windows/questComplete.js";
import { installMusic } from "./music.js";
import { installSound } from "./sound.js";
import { installHiscores } from "./features/hiscores/hiscoresWindow.js";
import { startWatching } from "./features/watch/watchMode.js";
import { watchTokenOf } from "./features/watch/watchLink.js";
import { installTrade } from "./windows/trade.js";

const PANELS: Panel[] = [inventoryPanel, equipmentPanel, skillsPanel, questsPanel, combatPanel, prayerPanel, productionPanel, friendsPanel, optionsPanel];
/** A readable line for whatever went wrong joining. */
function describe(err: unknown): string {
  if (err instanceof ApiError) return `${err.message} (${err.code})`;
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

/**
 * Sign in: the login this tab kept (a reload, Play after Log out), else a guest in anonymous
 * mode, or the identity provider's token when the server has one.
 */
async function signIn(): Promise<SavedLogin> {
  const saved = savedLogin();
  if (saved) {
    try {
      const renewed = { ...saved, ...(await refreshLogin(saved.token)) };
      saveLogin(renewed);
      return renewed;
    } catch (err) {
      // Refused: the join below says why. Unreachable: the kept token is tried as it is.
      if (loginRefused(err)) throw new LoginRefused(describe(err));
      return saved;
    }
  }
  const login: Login = idpMode() ? await loginWithIdp(byId<HTMLInputElement>("idp-token").value.trim()) : await loginAsGuest();
  saveLogin(login);
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
    // Run energy (player:sync vars.runEnergy, hundredths of a percent).
    const energy = Math.floor(Number(me.vars?.runEnergy ?? 10_000) / 100);
    run.textContent = `Run ${energy}%`;
    run.style.setProperty("--full", `${energy}%`);
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
    /** The npcs and players drawn now: `{kind, id, name, pose, x, y}`, page coordinates of their bodies; `pose` as poses.ts names it, "die" for one falling after its death. */
    figures: () => copy(view.figuresOnPage()),
    /** The names and speech over the figures drawn now: `{kind: "name"|"said", id, text, x0, y0, x1, y1}`, page coordinates. */
    labels: () => copy(view.labelsOnPage()),
    /** The buildings whose roofs are drawn now (ids as `/api/v1/world/map` gives them). */
    roofs: () => copy(view.drawnRoofs),
    /** The player's tile and whether it is on its way somewhere. */
    player: () => {
      const me = view.game.net.state.players?.get(view.game.net.playerId);
      return me ? { x: me.x, z: me.z, moving: me.moving } : null;
    },
    /**
     * The player stands still and the view is centred on its tile (the drawn player reaches its tile
     * a moment after the server moved it): what the last frame drew is where things stay.
     */
    settled: () => {
      const me = view.game.net.state.players?.get(view.game.net.playerId);
      const cam = view.camera;
      return me !== undefined && !me.moving && Math.abs(cam.x - me.x) < 1e-6 && Math.abs(cam.z - me.z) < 1e-6;
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
    let login: SavedLogin;
    try {
      login = await signIn();
    } catch (err) {
      if (!(err instanceof LoginRefused)) throw err;
      forgetLogin();
      throw new Error(refusedText(err.message));
    }
    const [map, catalogue, areas] = await Promise.all([loadMap(), loadCatalogue(), loadAreas()]);
    const name = byId<HTMLInputElement>("name").value.trim();
    let net: Connection;
    try {
      net = await Connection.join(serverUrl(), login.token, login.characterId ? { characterId: login.characterId } : name ? { name } : {});
    } catch (err) {
      // The kept login was refused (expired, its account removed): say so, and Play signs in anew.
      if (loginRefused(err)) {
        forgetLogin();
        throw new Error(refusedText(describe(err)));
      }
      // The character kept is not this account's any more: Play joins the account's first.
      if (login.characterId && (err as { code?: unknown }).code === 404) saveLogin({ token: login.token, accountId: login.accountId });
      throw err;
    }
    saveLogin({ ...login, characterId: net.me.id });
    setSignsBackIn(true);
    const game = new Game(net, catalogue, map);
    byId("login").hidden = true;
    byId("game").hidden = false;
    installChat(byId("chat"), game);
    installTabs(game);
    installTrade(game);
    installDuel(game);
    installNpcWindows(game);
    installStoreWindow(game);
    installBankWindow(game);
    installReport(game);
    installHiscores(game);
    installQuestComplete(game);
    installMusic(game, installSound(game));
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
    installMenuDismissal();
    installKeyboard(game, view);
    installTouch(view);
    const words = pointerWords();
    game.log(`Welcome to the world, ${game.me.name}. ${words.Click} to walk; ${words.rightClick} for more; the yellow arrow shows where your quest goes next.`);
    // A handle for tools and tests that drive the page: where things are, what the client knows.
    (window as unknown as { arena: unknown }).arena = { game, view };
  } catch (err) {
    showLogin();
    error.textContent = `Could not join the world: ${describe(err)}`;
    button.disabled = false;
  }
}

const idpMode = () => Boolean(publicEnv().PUBLIC_IDP_APP_ID);

/** The kept login was refused by the server (its reason in the message). */
class LoginRefused extends Error {}

/** Why a kept login no longer works, and the way back. */
function refusedText(why: string): string {
  return `Your earlier sign-in can no longer be used (${why}). Play again to start ${idpMode() ? "by signing in" : "as a new guest"}.`;
}

/** The start form: Play as a guest (or with the provider's token); a kept login plays its character again. */
function showLogin() {
  const kept = savedLogin();
  byId("login-mode").textContent = kept?.characterId
    ? "Play to go back into the world as your character."
    : idpMode()
      ? "Sign in with your identity provider's access token."
      : "Play as a guest: no account needed.";
  byId("idp-row").hidden = !idpMode() || Boolean(kept);
  byId("name-row").hidden = Boolean(kept?.characterId);
}

function start() {
  // A watch link (/#watch=<token>) watches an agent: no sign-in, no character of one's own. One
  // pasted into this tab's address later is opened too (a new fragment alone loads nothing).
  window.addEventListener("hashchange", () => watchTokenOf(location.hash) !== null && location.reload());
  const watchToken = watchTokenOf(location.hash);
  if (watchToken !== null) return void startWatching(watchToken);
  const button = byId<HTMLButtonElement>("play");
  button.onclick = () => void play();
  installLoginKeys();
  // A reload in the middle of play goes straight back in, as the same character.
  if (signsBackIn()) {
    byId("login-mode").textContent = "Signing you back in…";
    byId("name-row").hidden = true;
    byId("idp-row").hidden = true;
    return void play();
  }
  showLogin();
  button.disabled = false;
  focusLogin();
}

start();
