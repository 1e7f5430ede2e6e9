import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { DrawnMarker } from "../../client/src/view.js";
import { theWorld } from "../helpers/worldRoom.js";
import { browserSuite, playAsGuest, screenshot, tileOnPage } from "./browser.js";

type Tile = { x: number; z: number };

/**
 * Keyboard play in Debian's Chromium against a real server (client/src/keyboard.ts): a guest types
 * a name, plays with Enter and finishes "The Warden's Letter" with the keyboard alone: the page
 * focuses the map itself, the arrow keys walk toward the journal's target (the route is worked out
 * here from the page's own map, one key a tile), E talks to the target once it is drawn, the number
 * keys answer, Space continues, "]" switches the side tabs, "?" shows the keys and Escape closes
 * them. No mouse event reaches the page (counted there). The page is read through `window.arena`
 * and `window.arenaDrawn`; nothing acts through them. Then, with the mouse: the right-click menu
 * closes on Escape, on clicks on the world and on a click or a right click outside it, and keys do
 * nothing while the chat box is typed in.
 */
describe("web client in Chromium: keyboard play", function () {
  this.timeout(300_000);
  const suite = browserSuite();

  const markers = (page: Page): Promise<DrawnMarker[]> => page.evaluate(() => (window as any).arenaDrawn.markers());
  const player = (page: Page): Promise<Tile & { moving: boolean }> => page.evaluate(() => (window as any).arenaDrawn.player());
  const activeTab = (page: Page) => page.evaluate(() => document.querySelector("#tabs button.active")?.textContent ?? "");
  const focused = (page: Page) => page.evaluate(() => document.activeElement?.id ?? document.activeElement?.tagName ?? "");

  /** Press "]" until the side tab `name` is shown, waiting for each switch. */
  async function showTab(page: Page, name: string) {
    for (let i = 0; i < 15 && (await activeTab(page)) !== name; i++) {
      const before = await activeTab(page);
      await page.keyboard.press("]");
      await page.waitForFunction((b) => document.querySelector("#tabs button.active")?.textContent !== b, before);
    }
    assert.equal(await activeTab(page), name);
  }

  /**
   * The first step (an arrow key) of a shortest walk over the page's own map (`game.isBlocked`,
   * four ways) from the player's tile to beside `goal`.
   */
  function firstStep(page: Page, goal: Tile): Promise<string | null> {
    return page.evaluate(
      ([gx, gz]) => {
        const arena = (window as any).arena;
        const me = arena.game.net.state.players.get(arena.game.net.playerId);
        const start = { x: me.x as number, z: me.z as number };
        // (No functions declared in here: the test's compiler would name them with a helper the page lacks.)
        if (Math.max(Math.abs(start.x - gx), Math.abs(start.z - gz)) <= 1) return null;
        const dirs: Array<[number, number, string]> = [
          [0, 1, "ArrowUp"],
          [0, -1, "ArrowDown"],
          [-1, 0, "ArrowLeft"],
          [1, 0, "ArrowRight"],
        ];
        const first = new Map<string, string>([[`${start.x},${start.z}`, ""]]);
        const queue: Array<[number, number]> = [[start.x, start.z]];
        for (let i = 0; i < queue.length && i < 100_000; i++) {
          const [x, z] = queue[i]!;
          for (const [dx, dz, key] of dirs) {
            const nx = x + dx;
            const nz = z + dz;
            const k = `${nx},${nz}`;
            if (first.has(k) || arena.game.isBlocked(nx, nz)) continue;
            const via = first.get(`${x},${z}`) || key;
            if (Math.max(Math.abs(nx - gx), Math.abs(nz - gz)) <= 1) return via;
            first.set(k, via);
            queue.push([nx, nz]);
          }
        }
        return null;
      },
      [goal.x, goal.z] as const,
    );
  }

  /** Walk with the arrow keys, a tile a press, until the journal's target (`label`) is drawn on the map. */
  async function walkKeysTo(page: Page, label: RegExp) {
    for (let steps = 0; steps < 150; steps++) {
      await page.waitForFunction(() => (window as any).arenaDrawn.markers().length > 0);
      const all = await markers(page);
      const shown = all.find((m) => m.where === "map" && !m.edge && m.entityId);
      if (shown) {
        assert.match(shown.label, label);
        return;
      }
      assert.match(all[0]!.label, label);
      const key = await firstStep(page, all[0]!.tile);
      assert.ok(key, `a way to ${JSON.stringify(all[0]!.tile)}`);
      const before = await player(page);
      await page.keyboard.press(key);
      await page.waitForFunction(
        (b) => {
          const me = (window as any).arenaDrawn.player();
          return me && (me.x !== b.x || me.z !== b.z);
        },
        before,
        { timeout: 15_000 },
      );
    }
    assert.fail(`never came in sight of ${label}`);
  }

  /** Walk toward the target, press E, and wait for the npc's words. */
  async function talkWithKeys(page: Page, label: RegExp, npcName: string) {
    await walkKeysTo(page, label);
    await page.keyboard.press("e");
    await page.locator("#dialog h3", { hasText: npcName }).waitFor({ timeout: 60_000 });
  }

  /** Answer the conversation with the number key of the answer that reads `text`. */
  async function answerWithKey(page: Page, text: string) {
    await page.locator("#dialog .actions button", { hasText: text }).first().waitFor();
    const i = await page.evaluate(
      (t) =>
        Array.from(document.querySelectorAll("#dialog .actions button"))
          .slice(0, -1)
          .findIndex((b) => b.textContent?.includes(t)),
      text,
    );
    assert.ok(i >= 0 && i < 9, `"${text}" is an answer`);
    await page.keyboard.press(String(i + 1));
  }

  /** Space continues a conversation with no answer left, and it closes. */
  async function continueWithSpace(page: Page) {
    // The npc's last words: Continue alone.
    await page.waitForFunction(() => {
      const buttons = Array.from(document.querySelectorAll("#dialog .actions button"));
      return buttons.length === 1 && buttons[0]!.textContent === "Continue";
    });
    await page.keyboard.press("Space");
    await page.locator("#dialog").waitFor({ state: "hidden" });
  }

  it("a guest signs in with Enter and finishes The Warden's Letter with the keyboard alone", async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1060, height: 760 } });
    const problems: string[] = [];
    page.on("pageerror", (err) => problems.push(err.message));
    page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
    // Every pointer press the page gets, counted before its own listeners.
    await page.addInitScript(() => {
      (window as any).pointerPresses = 0;
      for (const type of ["mousedown", "pointerdown", "wheel"])
        window.addEventListener(type, (ev) => ev.isTrusted && (window as any).pointerPresses++, { capture: true });
    });
    try {
      await page.goto(suite.server.url);
      await page.waitForSelector("#play:not([disabled])");
      assert.equal(await focused(page), "name", "the name field has the focus");
      await page.keyboard.type("Keyboarder");
      await page.keyboard.press("Enter");
      await page.waitForSelector("#game:not([hidden])", { timeout: 20_000 });
      await page.waitForFunction(() => document.activeElement?.id === "world");
      assert.ok(await page.evaluate(() => document.querySelector("#world")!.matches(":focus-visible")), "the map shows its focus ring");
      const id = await page.evaluate(() => (window as any).arena.game.net.playerId as string);

      // The keys' help.
      await page.keyboard.press("?");
      await page.locator("#keys-help").waitFor();
      assert.match((await page.locator("#keys-help").textContent()) ?? "", /W A S D.*Escape/s);
      await page.keyboard.press("Escape");
      await page.locator("#keys-help").waitFor({ state: "hidden" });

      // The journal, with the tab keys.
      await showTab(page, "Quests");
      const journal = page.locator('#panel [data-quest="the_wardens_letter"]');
      await journal.waitFor();

      await talkWithKeys(page, /talk to Warden Holt/, "Warden Holt");
      await answerWithKey(page, "What do you need?");
      await page.locator("#dialog p", { hasText: "sealed letter" }).waitFor();
      await answerWithKey(page, "I'll take it.");
      await page.locator("#dialog p", { hasText: "Take this to Odessa" }).waitFor();
      await screenshot(page, "keyboard-1-warden");
      await continueWithSpace(page);
      await journal.locator(".target", { hasText: /Talk to Odessa the Banker/ }).waitFor();

      await talkWithKeys(page, /Talk to Odessa the Banker/, "Odessa the Banker");
      await page.locator("#dialog p", { hasText: "The warden's seal, unbroken" }).waitFor();
      await answerWithKey(page, "Goodbye.");
      await continueWithSpace(page);
      // A banker may bring the bank forward: back to the journal with the tab keys.
      await showTab(page, "Quests");
      await journal.locator(".stage", { hasText: "Tell Warden Holt the letter arrived" }).waitFor();

      await talkWithKeys(page, /Talk to Warden Holt/, "Warden Holt");
      await page.locator("#dialog p", { hasText: "for your honesty" }).waitFor();
      await page.locator(".chat .log div", { hasText: "Quest complete: The Warden's Letter" }).waitFor();
      await continueWithSpace(page);
      await showTab(page, "Quests");
      await journal.and(page.locator('[data-status="completed"]')).waitFor();
      await screenshot(page, "keyboard-2-done");

      // The pack: Tab reaches its slots, Enter opens a slot's menu (focused), the arrows move in it, Escape closes it.
      await showTab(page, "Pack");
      for (let i = 0; i < 60 && !(await page.evaluate(() => document.activeElement?.matches("#panel .slot") ?? false)); i++) await page.keyboard.press("Tab");
      const slot = await page.evaluate(() => (document.activeElement as HTMLElement).dataset.slot ?? "");
      assert.ok(await page.evaluate(() => document.activeElement!.matches(".slot:focus-visible")), "a pack slot has the focus, its ring shown");
      await page.keyboard.press("Enter");
      await page.locator("#menu").waitFor();
      assert.ok(await page.evaluate(() => document.activeElement?.closest("#menu") !== null), "the menu's first entry has the focus");
      await page.keyboard.press("ArrowDown");
      assert.ok(await page.evaluate(() => document.activeElement?.matches("#menu button:nth-of-type(2)") ?? false), "ArrowDown moves in the menu");
      await page.keyboard.press("Escape");
      await page.locator("#menu").waitFor({ state: "hidden" });
      await page.waitForFunction((n) => (document.activeElement as HTMLElement | null)?.dataset.slot === n, slot);

      // The server agrees; and no mouse touched the page.
      const world = await theWorld();
      assert.equal(world.world.players.get(id)?.quests.get("the_wardens_letter")?.completions, 1);
      assert.equal(await page.evaluate(() => (window as any).pointerPresses), 0, "no pointer press reached the page");
      assert.deepEqual(problems, [], "no errors in the page's console");
    } catch (err) {
      await screenshot(page, "keyboard-failed");
      throw new Error(`${(err as Error).message}\nchat: ${(await page.locator(".chat .log").textContent()) ?? ""}`);
    } finally {
      await page.close();
    }
  });

  it("the right-click menu closes on Escape and on clicks outside it; keys do nothing while typing in the chat", async () => {
    const { page, id } = await playAsGuest(suite.browser, suite.server.url, "Menus");
    await page.waitForFunction((me) => (window as any).arena.game.net.state.players.get(me) !== undefined, id);
    const menu = page.locator("#menu");
    const openOn = async (dx: number) => {
      const me = await player(page);
      const at = await tileOnPage(page, me.x + dx, me.z);
      await page.mouse.click(at.x, at.y, { button: "right" });
      await menu.locator("button", { hasText: "Walk here" }).waitFor();
    };
    const clickWorld = async (dx: number) => {
      const me = await player(page);
      const at = await tileOnPage(page, me.x + dx, me.z + 1);
      await page.mouse.click(at.x, at.y);
    };

    await openOn(2);
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "hidden" });

    // Two clicks on the world, then Escape (the report): closed at the first click, and stays closed.
    await openOn(-2);
    await clickWorld(1);
    await menu.waitFor({ state: "hidden" });
    await clickWorld(-1);
    await page.keyboard.press("Escape");
    assert.equal(await menu.isHidden(), true);

    // A click outside the map and the menu, and a right click outside them.
    await openOn(2);
    await page.click("#panel h3");
    await menu.waitFor({ state: "hidden" });
    await openOn(-2);
    await page.click("#chat .log", { button: "right" });
    await menu.waitFor({ state: "hidden" });

    // While typing in the chat box no key walks or acts; Escape there goes back to the map, where keys walk.
    await page.evaluate(() => {
      const net = (window as any).arena.game.net;
      const send = net.send.bind(net);
      (window as any).sentTypes = [];
      net.send = (type: string, message: unknown) => ((window as any).sentTypes.push(type), send(type, message));
    });
    const input = page.locator("#chat form input").first();
    await input.focus();
    await page.keyboard.type("wasd e 1 ]");
    await page.keyboard.press("Enter");
    await page.locator(".chat .log div", { hasText: "wasd e 1 ]" }).waitFor();
    assert.deepEqual(await page.evaluate(() => (window as any).sentTypes), ["player:chat"]);
    await page.keyboard.press("Escape");
    assert.equal(await focused(page), "world");
    await page.keyboard.press("d");
    assert.deepEqual(await page.evaluate(() => (window as any).sentTypes), ["player:chat", "player:move"]);
    await page.close();
  });
});
