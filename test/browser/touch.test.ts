import assert from "node:assert/strict";
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import type { DrawnMarker } from "../../client/src/view.js";
import { theWorld } from "../helpers/worldRoom.js";
import { browserSuite, screenshot } from "./browser.js";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
/**
 * Touch play and the narrow layout (client/src/touch.ts, client/style.css "Touch and small
 * screens") in Debian's Chromium against a real server, on a 390×844 phone (`hasTouch`,
 * `isMobile`): the page is no wider than the screen, the map fills its width and the minimap, the
 * tabs and the pack are on it (below the map); the hint says tap and long press. Then a guest plays
 * "The Warden's Letter" with the fingers alone: taps on the minimap's marker walk, a long press on
 * the warden opens his menu (a right click's) and a tap on its Talk-to talks, taps on the map's
 * markers talk, taps answer. A drag on the map does nothing; a pinch zooms the map, never the page.
 * The touches go through Playwright's touchscreen and CDP's Input.dispatchTouchEvent (a real
 * touch sequence, pointer events and all); the page is read through `window.arenaDrawn` (where the
 * markers are drawn, in page coordinates) and `window.arena`, never acted on through them. Every wait
 * is for the page or the server, never for a time. Screenshots: test-results/screenshots/phone.png
 * and desktop.png (1280×800).
 */
describe("web client in Chromium: touch and a phone's screen", function () {
  this.timeout(300_000);
  const suite = browserSuite();

  const markers = (page: Page): Promise<DrawnMarker[]> => page.evaluate(() => (window as any).arenaDrawn.markers());
  const player = (page: Page): Promise<{ x: number; z: number; moving: boolean } | null> => page.evaluate(() => (window as any).arenaDrawn.player());
  const journal = (page: Page, questId: string) => page.locator(`#panel [data-quest="${questId}"]`);
  const zoom = (page: Page): Promise<number> => page.evaluate(() => (window as any).arena.view.tile as number);
  /** How many `player:move` the page has sent (counted by a wrapper put on its connection's send: it counts and passes on). */
  const moves = (page: Page): Promise<number> => page.evaluate(() => (window as any).touchTestMoves as number);

  /** A page point (as the test aid gives them) in the viewport: scrolled to when off screen. */
  async function onScreen(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
    return page.evaluate(
      ([px, py]) => {
        if (py - window.scrollY < 8 || py - window.scrollY > window.innerHeight - 8) window.scrollTo(0, py - window.innerHeight / 2);
        return { x: px - window.scrollX, y: py - window.scrollY };
      },
      [x, y] as const,
    );
  }

  async function tap(page: Page, x: number, y: number) {
    const at = await onScreen(page, x, y);
    await page.touchscreen.tap(at.x, at.y);
  }

  /** One finger down at a page point until the menu opens (the long press's), then up; false when no menu came. */
  async function longPress(page: Page, cdp: CDPSession, x: number, y: number): Promise<boolean> {
    const at = await onScreen(page, x, y);
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x: at.x, y: at.y, id: 1 }] });
    const opened = await page
      .locator("#menu")
      .waitFor({ timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    return opened;
  }

  /** The markers as drawn in a frame once the player stands still (two animation frames after a still moment). */
  async function stillMarkers(page: Page): Promise<DrawnMarker[]> {
    for (;;) {
      await page.waitForFunction(() => (window as any).arenaDrawn.player()?.moving === false, null, { timeout: 90_000 });
      const drawn = await page.evaluate(
        () =>
          new Promise<{ moving: boolean; markers: DrawnMarker[] }>((resolve) =>
            requestAnimationFrame(() =>
              requestAnimationFrame(() => {
                const aid = (window as any).arenaDrawn;
                resolve({ moving: Boolean(aid.player()?.moving), markers: aid.markers() });
              }),
            ),
          ),
      );
      if (!drawn.moving) return drawn.markers;
    }
  }

  /**
   * Until a marker labelled `label` is drawn on the map over its target with the player standing
   * still: tap the minimap's marker (walking there), and wait to get there. The marker on the map.
   */
  async function walkToMarker(page: Page, label: RegExp): Promise<DrawnMarker> {
    for (let leg = 0; leg < 15; leg++) {
      const all = await stillMarkers(page);
      const onMap = all.find((m) => m.where === "map" && !m.edge);
      if (onMap) {
        assert.match(onMap.label, label);
        return onMap;
      }
      const mini = all.find((m) => m.where === "minimap");
      assert.ok(mini, `a marker on the minimap (${JSON.stringify(all)})`);
      assert.match(mini.label, label);
      const before = await player(page);
      await tap(page, mini.x, mini.y);
      await page.waitForFunction(
        (from) => {
          const me = (window as any).arenaDrawn.player();
          return me && (me.x !== from?.x || me.z !== from?.z) && !me.moving;
        },
        before,
        { timeout: 90_000 },
      );
    }
    assert.fail(`never reached the marker ${label}`);
  }

  /** Walk to the marker and tap what it stands over (its first action: talk). */
  async function tapMarker(page: Page, label: RegExp) {
    let m = await walkToMarker(page, label);
    if (!m.entityId) {
      // A place from the map (its npc not in sight yet): walk onto it first.
      await tap(page, m.x, m.y);
      await page.waitForFunction(() => (window as any).arenaDrawn.markers().some((k: DrawnMarker) => k.where === "map" && !k.edge && k.entityId), null, {
        timeout: 60_000,
      });
      m = await walkToMarker(page, label);
    }
    await tap(page, m.x, m.y);
  }

  async function talkVia(page: Page, label: RegExp, npcName: string) {
    await tapMarker(page, label);
    await page.locator("#dialog h3", { hasText: npcName }).waitFor({ timeout: 60_000 });
  }

  /** Long press the marker's npc until its menu offers `entry`, and tap that (a menu that missed is cancelled with a tap). */
  async function longPressMarker(page: Page, cdp: CDPSession, label: RegExp, entry: string): Promise<string[]> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const m = await walkToMarker(page, label);
      assert.ok(await longPress(page, cdp, m.x, m.y), "a long press on the map opens the menu");
      const entries = await page.locator("#menu button").allTextContents();
      const box = (await page.locator("#menu").boundingBox())!;
      assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `the menu is inside the screen (${JSON.stringify(box)})`);
      const choice = page.locator("#menu button", { hasText: entry });
      if ((await choice.count()) > 0) {
        // Lifting the finger did not act: the menu is still open, and nothing was sent to walk.
        assert.equal(await page.locator("#menu").isVisible(), true, "the menu stays open once the finger is lifted");
        await choice.first().tap();
        await page.locator("#menu").waitFor({ state: "hidden" });
        return entries;
      }
      await page.locator("#menu button", { hasText: "Cancel" }).tap();
      await page.locator("#menu").waitFor({ state: "hidden" });
    }
    assert.fail(`no "${entry}" in the menu of the marker ${label}`);
  }

  const answer = (page: Page, text: string) => page.locator("#dialog button", { hasText: text }).first().tap();
  /**
   * The npc's last words put away with Continue. A Continue tapped before the server's end of the
   * conversation came is refused (NOT_IN_DIALOGUE) and the last words are shown again once it
   * comes (windows/npcs.ts): then it is tapped again.
   */
  async function done(page: Page) {
    for (let attempt = 0; attempt < 3; attempt++) {
      await answer(page, "Continue");
      if (
        await page
          .locator("#dialog")
          .waitFor({ state: "hidden", timeout: 5_000 })
          .then(
            () => true,
            () => false,
          )
      )
        return;
    }
    assert.fail("the conversation's last words were not put away");
  }

  let phone: BrowserContext | undefined;
  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });

  it("on a 390×844 phone the page fits the screen, and a guest plays The Warden's Letter with taps and a long press", async () => {
    phone = await suite.browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const page = await phone.newPage();
    const cdp = await phone.newCDPSession(page);
    const problems: string[] = [];
    page.on("pageerror", (err) => problems.push(err.message));
    page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
    try {
      await page.goto(suite.server.url);
      await page.fill("#name", "Thumbs");
      await page.tap("#play");
      await page.waitForSelector("#game:not([hidden])", { timeout: 20_000 });
      await page.waitForFunction(() => (window as any).arenaDrawn.markers().some((m: DrawnMarker) => m.where === "minimap"));
      await page.evaluate(() => {
        const net = (window as any).arena.game.net;
        const send = net.send.bind(net);
        (window as any).touchTestMoves = 0;
        net.send = (type: string, message: unknown) => {
          if (type === "player:move") (window as any).touchTestMoves++;
          return send(type, message);
        };
      });

      // The layout: nothing wider than the screen; the map fills its width; the minimap, the tabs
      // and the pack below it, inside the screen's width and within the page's height.
      assert.ok(
        (await page.evaluate(() => document.documentElement.scrollWidth)) <= PHONE.width,
        `the page is no wider than the screen (${await page.evaluate(() => document.documentElement.scrollWidth)} px)`,
      );
      const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
      const map = (await page.locator("#world").boundingBox())!;
      assert.ok(map.x >= 0 && map.x + map.width <= PHONE.width && map.width >= PHONE.width - 24, `the map fills the width (${JSON.stringify(map)})`);
      assert.ok(map.height > map.width, "the map is taller than wide on a phone");
      assert.equal(await page.locator("#tabs button.active").textContent(), "Pack");
      for (const selector of ["#minimap", "#tabs", "#panel", "#life", "#run", "#chat"]) {
        const box = (await page.locator(selector).boundingBox())!;
        assert.ok(box, `${selector} is shown`);
        assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `${selector} is inside the screen's width (${JSON.stringify(box)})`);
        assert.ok(box.y >= 0 && box.y + box.height <= pageHeight, `${selector} is reachable by scrolling down (${JSON.stringify(box)}, page ${pageHeight})`);
        if (selector !== "#chat") assert.ok(box.y >= map.y + map.height - 1, `${selector} is below the map`);
      }
      // A pack slot at the screen's right edge opens its menu inside the screen.
      await page.locator('#panel .slot[data-slot="3"]').tap();
      const slotMenu = (await page.locator("#menu").boundingBox())!;
      assert.ok(slotMenu.x >= 0 && slotMenu.x + slotMenu.width <= PHONE.width, `the slot's menu is inside the screen (${JSON.stringify(slotMenu)})`);
      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= PHONE.width, "a menu does not widen the page");
      await page.locator("#menu button", { hasText: "Cancel" }).tap();
      await page.locator("#menu").waitFor({ state: "hidden" });
      await page.evaluate(() => window.scrollTo(0, 0));
      // The hint speaks of fingers.
      const hint = page.locator("#hint");
      await hint.waitFor();
      const hintText = (await hint.textContent()) ?? "";
      assert.match(hintText, /tap Warden Holt to talk/);
      assert.match(hintText, /long press anything/);
      assert.doesNotMatch(hintText, /right-click|click/i);
      await screenshot(page, "phone");
      await hint.locator("button", { hasText: "Got it" }).tap();
      await hint.waitFor({ state: "hidden" });
      await page.locator('#tabs button:has-text("Quests")').tap();
      await journal(page, "the_wardens_letter").waitFor();

      // A drag on the map does nothing (no walk, no menu); a tap there walks.
      const mapBox = (await page.locator("#world").boundingBox())!;
      const cx = mapBox.x + mapBox.width / 2;
      const cy = mapBox.y + mapBox.height / 2;
      const sentBefore = await moves(page);
      await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x: cx + 40, y: cy + 40, id: 1 }] });
      for (const d of [15, 30, 60]) await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x: cx + 40 + d, y: cy + 40, id: 1 }] });
      await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
      assert.equal(await moves(page), sentBefore, "a drag sends no walk");
      assert.equal(await page.locator("#menu").isVisible(), false, "a drag opens no menu");
      await page.touchscreen.tap(cx + 2 * (await zoom(page)), cy);
      await page.waitForFunction((n) => (window as any).touchTestMoves > n, sentBefore);
      assert.equal(await moves(page), sentBefore + 1, "a tap on the ground walks, once");

      // A pinch zooms the map (two steps out and back), never the page.
      const before = await zoom(page);
      const pinch = async (from: number, to: number) => {
        const at = (d: number) => [
          { x: cx - d, y: cy, id: 1 },
          { x: cx + d, y: cy, id: 2 },
        ];
        await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: at(from) });
        for (let k = 1; k <= 6; k++) await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: at(from + ((to - from) * k) / 6) });
        await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
      };
      await pinch(30, 70);
      const spread = await zoom(page);
      assert.ok(spread > before, `spreading two fingers zooms in (${before} → ${spread})`);
      await pinch(70, 30);
      assert.ok((await zoom(page)) < spread, "closing them zooms out");
      assert.equal(await page.evaluate(() => window.visualViewport?.scale ?? 1), 1, "the page itself is not zoomed");
      assert.equal(await page.locator("#menu").isVisible(), false, "a pinch opens no menu");
      await page.evaluate(() => window.scrollTo(0, 0));
      while ((await zoom(page)) !== before) await page.locator((await zoom(page)) < before ? "#zoom-in" : "#zoom-out").tap();

      // The Warden's Letter: a long press on the warden lists what can be done with him; Talk-to talks.
      const entries = await longPressMarker(page, cdp, /talk to Warden Holt/, "Talk-to Warden Holt");
      assert.ok(entries.length >= 3, `the menu has entries (${entries.join(", ")})`);
      assert.ok(entries.includes("Cancel") && entries.some((e) => e.startsWith("Examine Warden Holt")), `the menu a right click opens (${entries.join(", ")})`);
      await page.locator("#dialog h3", { hasText: "Warden Holt" }).waitFor({ timeout: 60_000 });
      await answer(page, "What do you need?");
      await page.locator("#dialog p", { hasText: "sealed letter" }).waitFor();
      await answer(page, "I'll take it.");
      await page.locator("#dialog p", { hasText: "Take this to Odessa" }).waitFor();
      await done(page);
      await journal(page, "the_wardens_letter").locator(".stage", { hasText: "Hand the sealed letter to Odessa" }).waitFor();
      await journal(page, "the_wardens_letter")
        .locator(".target", { hasText: /Talk to Odessa the Banker/ })
        .waitFor();

      await talkVia(page, /Talk to Odessa the Banker/, "Odessa the Banker");
      await page.locator("#dialog p", { hasText: "The warden's seal, unbroken" }).waitFor();
      await answer(page, "Goodbye.");
      await done(page);
      await journal(page, "the_wardens_letter").locator(".stage", { hasText: "Tell Warden Holt the letter arrived" }).waitFor();

      await talkVia(page, /Talk to Warden Holt/, "Warden Holt");
      await page.locator("#dialog p", { hasText: "for your honesty" }).waitFor();
      await page.locator(".chat .log div", { hasText: "Quest complete: The Warden's Letter" }).waitFor();
      await done(page);
      await journal(page, "the_wardens_letter").and(page.locator('[data-status="completed"]')).waitFor();

      // The server agrees; still no wider than the screen after all that was opened.
      const world = await theWorld();
      const me = [...world.world.players.values()].find((p) => p.name === "Thumbs")!;
      assert.equal(me.quests.get("the_wardens_letter")?.completions, 1);
      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= PHONE.width, "the page is still no wider than the screen");
      assert.deepEqual(problems, [], "no errors in the page's console");
    } catch (err) {
      await screenshot(page, "touch-failed");
      throw new Error(`${(err as Error).stack}\nchat: ${(await page.locator(".chat .log").textContent()) ?? ""}`);
    }
  });

  it("at 360 px wide (the narrowest laid out for) and at 800 (a phone on its side), the page is no wider than the screen", async () => {
    for (const viewport of [
      { width: 360, height: 740 },
      { width: 800, height: 390 },
    ]) {
      phone = await suite.browser.newContext({ viewport, hasTouch: true, isMobile: true });
      const page = await phone.newPage();
      await page.goto(suite.server.url);
      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= viewport.width, `the start form fits ${viewport.width} px`);
      await page.tap("#play");
      await page.waitForSelector("#game:not([hidden])", { timeout: 20_000 });
      await page.waitForFunction(() => (window as any).arenaDrawn.markers().some((m: DrawnMarker) => m.where === "minimap"));
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= viewport.width, `the page is no wider than the ${viewport.width} px screen (${width} px)`);
      for (const selector of ["#world", "#minimap", "#tabs", "#panel"]) {
        const box = (await page.locator(selector).boundingBox())!;
        assert.ok(box.x >= 0 && box.x + box.width <= viewport.width, `${selector} is inside the ${viewport.width} px screen (${JSON.stringify(box)})`);
      }
      await phone.close();
      phone = undefined;
    }
  });

  it("at 1280×800 the page keeps its wide layout (the map beside the panels) and the mouse's words", async () => {
    const page = await suite.browser.newPage({ viewport: DESKTOP });
    try {
      await page.goto(suite.server.url);
      await page.fill("#name", "Desk");
      await page.click("#play");
      await page.waitForSelector("#game:not([hidden])", { timeout: 20_000 });
      await page.waitForFunction(() => (window as any).arenaDrawn.markers().some((m: DrawnMarker) => m.where === "minimap"));
      const map = (await page.locator("#world").boundingBox())!;
      const side = (await page.locator(".side").boundingBox())!;
      assert.equal(await page.evaluate(() => (document.getElementById("world") as HTMLCanvasElement).width), 720);
      assert.ok(side.x >= map.x + map.width, "the panels stand beside the map");
      const hint = (await page.locator("#hint").textContent()) ?? "";
      assert.match(hint, /click Warden Holt to talk/);
      assert.match(hint, /right-click anything/);
      await screenshot(page, "desktop");
    } finally {
      await page.close();
    }
  });
});
