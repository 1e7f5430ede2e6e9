import assert from "node:assert/strict";
import { besideOf, setRng, theWorld } from "../helpers/worldRoom.js";
import { chooseOnPlayer, browserSuite, playAsGuest, screenshot, tileOnPage } from "./browser.js";

/**
 * The web client at / in Debian's Chromium, headless, against a real server: a player logs in as a
 * guest, walks, chops a tree and sees the experience; two pages trade with each other through the
 * trade window. Screenshots go to test-results/screenshots.
 */
describe("web client in Chromium", function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it("serves the page, the script and the stylesheet", async () => {
    const page = await fetch(`${suite.server.url}/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<canvas id="world"/);
    const script = await fetch(`${suite.server.url}/client/main.js`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get("content-type") ?? "", /javascript/);
    assert.ok((await script.text()).length > 10_000);
    assert.equal((await fetch(`${suite.server.url}/client/style.css`)).status, 200);
  });

  it("a guest logs in, walks, chops a tree and sees the woodcutting xp", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Browser Al");
    const { page } = a;
    await page.waitForFunction((id) => (window as any).arena.game.net.state.players.get(id) !== undefined, a.id);
    const world = await theWorld();
    // The nearest standing tree the client sees.
    const tree = await page.evaluate(() => {
      const arena = (window as any).arena;
      const me = arena.game.me.position;
      let best: { id: string; x: number; z: number } | null = null;
      arena.game.net.state.resources.forEach((r: any) => {
        if (r.skill !== "woodcutting" || r.depleted || r.resourceId !== "tree_normal") return;
        if (!best || Math.hypot(r.x - me.x, r.z - me.z) < Math.hypot(best.x - me.x, best.z - me.z)) best = { id: r.id, x: r.x, z: r.z };
      });
      return best as { id: string; x: number; z: number } | null;
    });
    assert.ok(tree, "a tree is in view");
    // Walk there by clicking open tiles on the map, a screenful at a time, until it is beside the tree.
    const goal = besideOf(world, tree);
    for (let hop = 0; hop < 8; hop++) {
      const at = world.world.players.get(a.id)!.tile;
      if (at.x === goal.x && at.z === goal.z) break;
      const clamp = (d: number, n: number) => Math.max(-n, Math.min(n, d));
      const step = { x: at.x + clamp(goal.x - at.x, 10), z: at.z + clamp(goal.z - at.z, 7) };
      assert.ok(!world.world.map.isBlocked(step.x, step.z), `the walk crosses open ground (${step.x}, ${step.z})`);
      const on = await tileOnPage(page, step.x, step.z);
      await page.mouse.click(on.x, on.y);
      await page.waitForFunction(
        ([id, x, z]) => {
          const p = (window as any).arena.game.net.state.players.get(id);
          return p && p.x === x && p.z === z;
        },
        [a.id, step.x, step.z] as const,
        { timeout: 30_000 },
      );
      await page.waitForSelector(`#status:has-text("${step.x}, ${step.z}")`);
    }
    assert.deepEqual(world.world.players.get(a.id)!.tile, goal, "the clicks walked the player beside the tree");

    // Every roll succeeds: the first cycle next to the tree yields logs.
    setRng(world, 0);
    const onTree = await tileOnPage(page, tree.x, tree.z);
    await page.mouse.click(onTree.x, onTree.y);
    await page
      .locator(".chat .log div", { hasText: "woodcutting xp" })
      .first()
      .waitFor({ timeout: 60_000 })
      .catch(async (err) => {
        await screenshot(page, "woodcutting-failed");
        throw new Error(`no woodcutting xp in the chat: ${(await page.locator(".chat .log").textContent()) ?? ""} (${err.message})`);
      });
    await page.click('#tabs button:has-text("Skills")');
    const xpText = await page.locator('[data-skill="woodcutting"] .xp').textContent();
    assert.ok(Number.parseInt(xpText ?? "0", 10) > 0, `woodcutting xp shown: ${xpText}`);
    assert.ok(world.world.players.get(a.id)!.xp.woodcutting > 0, "the server agrees");
    await page.click('#tabs button:has-text("Pack")');
    await page.waitForSelector('.slot[data-item="logs"]');
    await screenshot(page, "woodcutting");
    setRng(world, 0.5);
    await page.close();
  });

  it("two pages trade through the trade window: offers, both screens, acceptance, the swap", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Trader Ann");
    const b = await playAsGuest(suite.browser, suite.server.url, "Trader Bo");
    const world = await theWorld();
    // A new character starts on the spawn tile, where the other stands too.
    await chooseOnPlayer(a, b, `Trade with ${b.name}`);
    await b.page.locator("#dialog", { hasText: `${a.name} wishes to trade` }).waitFor();
    await b.page.click('#dialog button:has-text("Accept")');
    await a.page.locator("#dialog h3", { hasText: `Trading with ${b.name}` }).waitFor();

    // Ann offers her 25 coins with a click (the slot's first thing in a trade); Bo one of his shrimps
    // (5 in separate slots: one slot, one shrimp) from the slot's menu.
    await a.page.click('.slot[data-item="coins"]');
    await b.page.click('.slot[data-item="shrimp"] >> nth=0', { button: "right" });
    await b.page.click('#menu button:has-text("Offer Shrimp")');
    await a.page.locator('#dialog [data-offered="shrimp"]').waitFor();
    await b.page.locator('#dialog [data-offered="coins"]', { hasText: "×25" }).waitFor();
    await screenshot(a.page, "trade-offer");

    await a.page.click('#dialog button:has-text("Accept")');
    await b.page.locator("#dialog .accepted").first().waitFor();
    await b.page.click('#dialog button:has-text("Accept")');
    await a.page.locator("#dialog h3", { hasText: "are you sure?" }).waitFor();
    await a.page.locator("#dialog p", { hasText: "You give 25 coins' worth" }).waitFor();
    await screenshot(a.page, "trade-confirm");
    await a.page.click('#dialog button:has-text("Accept")');
    await b.page.locator("#dialog h3", { hasText: "are you sure?" }).waitFor();
    await b.page.click('#dialog button:has-text("Accept")');

    await a.page.locator(".chat .log div", { hasText: "Trade completed. You received 1 Shrimp" }).waitFor();
    await b.page.locator(".chat .log div", { hasText: "Trade completed. You received 25 Coins" }).waitFor();
    await a.page.locator("#dialog").waitFor({ state: "hidden" });
    // The packs the pages show are the server's.
    const coinsOf = (p: typeof a.page) =>
      p.evaluate(() => (window as any).arena.game.me.inventory.filter((s: any) => s.itemId === "coins").reduce((n: number, s: any) => n + s.quantity, 0));
    await b.page.waitForFunction(() => (window as any).arena.game.me.inventory.some((s: any) => s.itemId === "coins" && s.quantity === 50));
    assert.equal(await coinsOf(a.page), 0);
    assert.equal(await coinsOf(b.page), 50);
    const serverPack = (id: string) => world.world.players.get(id)!.inventory.filter((s) => s?.itemId === "shrimp").length;
    assert.equal(serverPack(a.id), 6);
    assert.equal(serverPack(b.id), 4);
    await screenshot(b.page, "trade-done");
  });

  it("the combat and prayer panels change the player's state; a refusal reads as its message and code", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Panel Pat");
    const { page } = a;
    const world = await theWorld();
    await page.click('#tabs button:has-text("Combat")');
    await page.click('#panel button:has-text("aggressive")');
    await page.locator('#panel button.on:has-text("aggressive")').waitFor();
    assert.equal(world.world.players.get(a.id)!.combatStyle, "aggressive");

    const first = [...suite.server.ctx.gameData.prayers.values()].sort((x, y) => x.level - y.level)[0]!;
    await page.click('#tabs button:has-text("Prayer")');
    await page.click(`[data-prayer="${first.id}"] button`);
    await page.locator(`[data-prayer="${first.id}"] button.on`).waitFor();
    assert.ok(world.world.players.get(a.id)!.prayer.active.has(first.id), "the server turned it on");

    // An admin command from a player who is not one: refused, and said so in words.
    await page.fill(".chat form input", "/tp 1 1");
    await page.press(".chat form input", "Enter");
    const refusal = page.locator(".chat .log .error", { hasText: "(FORBIDDEN)" });
    await refusal.waitFor();
    assert.equal(await refusal.textContent(), "/tp is for admins (FORBIDDEN)");
    await screenshot(page, "panels-and-errors");
    await page.close();
  });
});
