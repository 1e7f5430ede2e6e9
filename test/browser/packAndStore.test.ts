import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { PlayerEntity } from "../../src/game/world/entities.js";
import type { World } from "../../src/game/world/World.js";
import { theWorld } from "../helpers/worldRoom.js";
import { browserSuite, chooseOnTile, playAsGuest, screenshot } from "./browser.js";

/** Give the player exactly these slots (the rest empty) and show it to the page. */
function pack(world: World, p: PlayerEntity, items: Array<{ itemId: string; quantity: number }>) {
  p.inventory = Array.from({ length: 28 }, (_, i) => items[i] ?? null) as PlayerEntity["inventory"];
  world.touchPlayer(p, true);
}

const slotsOf = (page: Page, itemId: string) => page.locator(`#panel .slot[data-item="${itemId}"]`);

/**
 * The pack's left click and the store's icon grid in Debian's Chromium: a click eats, wields,
 * buries, lights logs with the tinderbox in the pack, rubs a lamp (a menu of skills, no browser
 * prompt); an item with nothing to do first opens its menu; the store's shelves as icons with
 * their prices on pointing, a click buying the amount chosen, its menu's Buy-X asking in the
 * amount box, the pack's click there saying what the store pays and its menu selling.
 */
describe("web client in Chromium: the pack's left click and the store's icon grid", function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it("a click eats, wields, buries, lights logs and rubs a lamp; an item with no first thing opens its menu", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Clicker Cy");
    const { page } = a;
    const prompts: string[] = [];
    page.on("dialog", (d) => {
      prompts.push(d.message());
      void d.dismiss();
    });
    const world = (await theWorld()).world;
    const p = world.players.get(a.id)!;
    p.health = 3;
    pack(world, p, [
      { itemId: "shrimp", quantity: 1 },
      { itemId: "bronze_shortsword", quantity: 1 },
      { itemId: "bones", quantity: 1 },
      { itemId: "tinderbox", quantity: 1 },
      { itemId: "logs", quantity: 1 },
      { itemId: "lamp_of_learning", quantity: 1 },
      { itemId: "feathers", quantity: 10 },
    ]);
    await slotsOf(page, "lamp_of_learning").waitFor();

    await slotsOf(page, "shrimp").click();
    await slotsOf(page, "shrimp").waitFor({ state: "detached" });
    assert.ok(p.health > 3, "the shrimp was eaten");
    await slotsOf(page, "bronze_shortsword").click();
    await slotsOf(page, "bronze_shortsword").waitFor({ state: "detached" });
    assert.equal(p.equipment.weapon?.itemId, "bronze_shortsword", "the sword is wielded");
    const prayerXp = p.xp.prayer;
    await slotsOf(page, "bones").click();
    await slotsOf(page, "bones").waitFor({ state: "detached" });
    assert.ok(p.xp.prayer > prayerXp, "the bones were buried");
    assert.equal(await page.locator("#menu").isHidden(), true, "no menu was opened for them");

    // Logs with a tinderbox in the pack: a click lights them (the tinderbox stays). The dice at
    // their lowest, so the first attempt lights them.
    const dice = world.rng;
    (world as unknown as { rng: () => number }).rng = () => 0;
    await slotsOf(page, "logs").click();
    await page.waitForFunction(() => [...(window as any).arena.game.net.state.resources.values()].some((r: any) => r.skill === "firemaking"));
    await slotsOf(page, "logs").waitFor({ state: "detached" });
    assert.equal(await slotsOf(page, "tinderbox").count(), 1);
    (world as unknown as { rng: () => number }).rng = dice;

    // A lamp: a click asks which skill in a menu; the choice rubs it.
    const magicXp = p.xp.magic;
    await slotsOf(page, "lamp_of_learning").click();
    await page.locator("#menu .menu-title", { hasText: "which skill" }).waitFor();
    await page.click('#menu button:has-text("Magic")');
    await slotsOf(page, "lamp_of_learning").waitFor({ state: "detached" });
    assert.ok(p.xp.magic > magicXp, "the lamp's xp went to magic");

    // Feathers have no first thing: a click opens their menu; Escape closes it; a right click opens it too.
    await slotsOf(page, "feathers").click();
    await page.locator("#menu button", { hasText: "Drop Feathers" }).first().waitFor();
    await page.keyboard.press("Escape");
    await page.locator("#menu").waitFor({ state: "hidden" });
    await slotsOf(page, "feathers").click({ button: "right" });
    await page.click('#menu button:has-text("Drop some Feathers")');
    await page.locator("#amount:not([hidden]) input").fill("4");
    await page.keyboard.press("Enter");
    await slotsOf(page, "feathers").locator(".qty", { hasText: /^6$/ }).waitFor();
    assert.deepEqual(prompts, [], "no browser prompt was used");
    await page.close();
  });

  it("the store's shelves as icons, prices on pointing, a click buys the amount chosen, Buy-X in the amount box, the pack's click says what it pays, its menu sells", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Shopper Di");
    const { page } = a;
    const prompts: string[] = [];
    page.on("dialog", (d) => {
      prompts.push(d.message());
      void d.dismiss();
    });
    const world = (await theWorld()).world;
    const p = world.players.get(a.id)!;
    const pell = [...world.npcs.values()].find((n) => n.name === "Pell the Trader")!;
    pack(world, p, [
      { itemId: "coins", quantity: 500 },
      { itemId: "logs", quantity: 1 },
    ]);
    p.tile = { x: pell.position.x, z: pell.position.z + 1 };
    world.place("player", p.id, p.tile);
    world.touchPlayer(p, true);
    await chooseOnTile(page, pell.position.x, pell.position.z, "Trade Pell the Trader");
    await page.locator("#dialog[data-owner=store] .store-grid .slot[data-shelf]").first().waitFor();
    const stock = world.stores.get(pell.storeId!)!;
    assert.equal(await page.locator("#dialog .store-grid .slot[data-shelf] img").count(), stock.entries.size, "one icon per shelf");
    const shrimp = stock.entries.get("shrimp")!;
    const shelf = page.locator('#dialog .store-grid [data-shelf="shrimp"]');
    assert.match((await shelf.getAttribute("title")) ?? "", new RegExp(`^Shrimp: ${shrimp.price} coins`));
    await shelf.hover();
    await page.locator("#dialog .store-line", { hasText: `Shrimp: ${shrimp.price} coins` }).waitFor();

    // A click buys one; with 5 chosen, five.
    await shelf.click();
    await slotsOf(page, "shrimp").first().waitFor();
    await page.click('#dialog .store-amounts button[data-amount="5"]');
    await shelf.click();
    await page.waitForFunction(() => document.querySelectorAll('#panel .slot[data-item="shrimp"]').length === 6);
    // Buy-X from the shelf's menu asks in the amount box.
    await shelf.click({ button: "right" });
    await page.click('#menu button:has-text("Buy-X… Shrimp")');
    await page.locator("#amount:not([hidden]) input").fill("2");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll('#panel .slot[data-item="shrimp"]').length === 8);
    assert.equal(p.inventory.find((s) => s?.itemId === "coins")?.quantity, 500 - 8 * shrimp.price, "eight shrimp paid for");
    await screenshot(page, "store-grid");

    // In the pack, a click says what the store pays (a general store buys logs at 40% of their value, 4): nothing is sold; the menu sells.
    await slotsOf(page, "logs").click();
    await page.locator(".chat .log div", { hasText: "pays 1 coins for Logs" }).waitFor();
    assert.equal(await slotsOf(page, "logs").count(), 1, "a click sells nothing");
    await slotsOf(page, "logs").click({ button: "right" });
    await page.click('#menu button:has-text("Sell-1 Logs (1 coins each)")');
    await slotsOf(page, "logs").waitFor({ state: "detached" });
    assert.equal(p.inventory.find((s) => s?.itemId === "coins")?.quantity, 500 - 8 * shrimp.price + 1, "the logs sold for a coin");
    assert.deepEqual(prompts, [], "no browser prompt was used");
    await page.close();
  });
});
