import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { ROOT } from "../../src/paths.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { theWorld } from "../helpers/worldRoom.js";

/** Debian's Chromium (apt-get install chromium); never a downloaded browser. CHROMIUM_PATH overrides. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** Where the suites write their screenshots, for people to look at. */
export const SCREENSHOTS = path.join(ROOT, "test-results", "screenshots");

/** Headless Chromium with the flags a closed network needs (no background connections). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`test:browser needs Chromium at ${CHROMIUM}: install Debian's package (apt-get install chromium) or set CHROMIUM_PATH`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * A mocha suite's Chromium and server (with `env`), started before its tests and closed after
 * them. Call inside `describe`.
 */
export function browserSuite(env: Record<string, string> = {}) {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  before(async () => {
    browser = await launchChromium();
    server = await startTestServer({ env });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  return {
    get server(): TestServer {
      if (!server) throw new Error("the suite's server is not started");
      return server;
    },
    get browser(): Browser {
      if (!browser) throw new Error("the suite's browser is not started");
      return browser;
    },
  };
}

/** The screenshots the README shows, made by the suites (see `screenshot`). */
export const DOCS_SCREENSHOTS = path.join(ROOT, "docs", "screenshots");

/**
 * Save a screenshot of the page under test-results/screenshots/<name>.png. With
 * UPDATE_DOCS_SCREENSHOTS=1, one of those docs/screenshots keeps is written there too.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  const kept = path.join(DOCS_SCREENSHOTS, `${name}.png`);
  if (process.env.UPDATE_DOCS_SCREENSHOTS === "1" && existsSync(kept)) copyFileSync(file, kept);
  return file;
}

/** What a page's client knows, read through the handle it leaves on window (client/src/main.ts). */
export interface PagePlayer {
  page: Page;
  id: string;
  name: string;
}

/**
 * Open the client at `url`, play as a guest named `name`, and wait until the world is drawn.
 * `login`: an account's `{token, accountId}` already in the page's session (client/src/main.ts
 * reads it there), so the page plays that account instead of a new guest.
 */
export async function playAsGuest(browser: Browser, url: string, name: string, login?: { token: string; accountId: string }): Promise<PagePlayer> {
  const page = await browser.newPage({ viewport: { width: 1060, height: 760 } });
  const problems: string[] = [];
  page.on("pageerror", (err) => problems.push(err.message));
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  if (login) await page.addInitScript((saved) => sessionStorage.setItem("arena.token", saved), JSON.stringify(login));
  await page.goto(url);
  await page.fill("#name", name);
  await page.click("#play");
  await page.waitForSelector("#game:not([hidden])", { timeout: 20_000 }).catch((err) => {
    throw new Error(`${name} did not get into the world (${problems.join("; ") || err.message})`);
  });
  const id = await page.evaluate(() => (window as any).arena.game.net.playerId as string);
  return { page, id, name };
}

/**
 * Wait until the page's player stands on `tile` and the view has settled there: after a test's
 * `place`, the page may still show (settled) where the player stood before the move reached it.
 */
export async function settledOn(page: Page, tile: { x: number; z: number }): Promise<void> {
  await page.waitForFunction(
    ([x, z]) => {
      const drawn = (window as any).arenaDrawn;
      const me = drawn.player();
      return me?.x === x && me?.z === z && drawn.settled();
    },
    [tile.x, tile.z] as const,
  );
}

/**
 * The page coordinates of a tile's centre, read from a frame in which the view has settled: the
 * player stands still and the view is centred on its tile (after a walk or a test's `place`, the
 * drawn player glides there for a moment, and a point read meanwhile would be off by the glide).
 */
export async function tileOnPage(page: Page, x: number, z: number): Promise<{ x: number; y: number }> {
  const handle = await page.waitForFunction(([tx, tz]) => ((window as any).arenaDrawn.settled() ? (window as any).arena.view.tileToPage(tx, tz) : null), [
    x,
    z,
  ] as const);
  return (await handle.jsonValue()) as { x: number; y: number };
}

/**
 * Right-click a tile and choose the menu entry whose text starts with `label`. Should the menu not
 * offer it (what stood there stepped off between the read and the click), the menu is closed and
 * the tile clicked again, a few times before giving up with what the menu did offer.
 */
export async function chooseOnTile(page: Page, x: number, z: number, label: string) {
  let offered = "";
  for (let attempt = 0; attempt < 5; attempt++) {
    const at = await tileOnPage(page, x, z);
    await page.mouse.click(at.x, at.y, { button: "right" });
    const entry = page.locator("#menu button", { hasText: label }).first();
    const found = await entry.waitFor({ timeout: 3_000 }).then(
      () => true,
      () => false,
    );
    if (found) return entry.click();
    offered = (
      (await page
        .locator("#menu")
        .textContent()
        .catch(() => "")) ?? ""
    ).trim();
    await page.keyboard.press("Escape");
  }
  throw new Error(`no "${label}" in the menu of tile (${x}, ${z}); it offered: ${offered || "nothing"}`);
}

/** Once `from`'s page sees `to`, right-click where `to` stands and choose `label` (a trade, a challenge). */
export async function chooseOnPlayer(from: PagePlayer, to: PagePlayer, label: string) {
  const tile = (await theWorld()).world.players.get(to.id)!.tile;
  await from.page.waitForFunction((id) => (window as any).arena.game.net.state.players.get(id) !== undefined, to.id);
  await chooseOnTile(from.page, tile.x, tile.z, label);
}
