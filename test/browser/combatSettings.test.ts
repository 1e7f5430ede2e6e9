import assert from "node:assert/strict";
import { theWorld } from "../helpers/worldRoom.js";
import { browserSuite, chooseOnPlayer, playAsGuest, screenshot } from "./browser.js";

/**
 * The combat tab in Debian's Chromium: auto-retaliate turned off and on (the server's setting, kept
 * with the character), and the home teleport cast from its button, which then shows the cooldown.
 */
describe("web client in Chromium: auto-retaliate and the home teleport", function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it("the Combat tab turns auto-retaliate off and on, and casts the home teleport", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Homebound Hal");
    const { page } = a;
    const world = (await theWorld()).world;
    const p = world.players.get(a.id)!;
    await page.click('#tabs button:has-text("Combat")');
    await page.click('#panel button:has-text("Auto retaliate: on")');
    await page.locator('#panel button:has-text("Auto retaliate: off")').waitFor();
    assert.equal(p.vars.autoRetaliate, false, "the server's setting");
    await page.click('#panel button:has-text("Auto retaliate: off")');
    await page.locator('#panel button:has-text("Auto retaliate: on")').waitFor();
    assert.equal(p.vars.autoRetaliate, true);

    // Away from the spawn, cast the home teleport; the button shows the cast, then the cooldown.
    p.tile = { x: world.spawnTile.x + 5, z: world.spawnTile.z - 4 };
    world.place("player", p.id, p.tile);
    world.touchPlayer(p, true);
    await page.click('#panel button:has-text("Home teleport")');
    await page.locator('#panel button:has-text("casting")').waitFor();
    await page.locator('#panel button:has-text("ready at")').waitFor({ timeout: 20_000 });
    assert.deepEqual(p.tile, world.spawnTile);
    assert.equal(await page.locator('#panel button:has-text("ready at")').isDisabled(), true);
    await screenshot(page, "combat-settings");
    await page.close();
  });

  it("in the PvP ruins, another player's menu offers Attack, which attacks them; at the spawn it does not", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Raider Ros");
    const b = await playAsGuest(suite.browser, suite.server.url, "Wary Wil");
    const world = (await theWorld()).world;
    for (const npc of world.npcs.values()) if (npc.attackable) npc.deadUntilTick = world.tick + 10_000;
    const put = (id: string, x: number, z: number) => {
      const p = world.players.get(id)!;
      p.tile = { x, z };
      p.path = [];
      world.place("player", id, p.tile);
      world.touchPlayer(p, true);
    };
    // At the spawn (a safe town) the menu has no Attack.
    const spawnTile = world.players.get(b.id)!.tile;
    await a.page.waitForFunction((id) => (window as any).arena.game.net.state.players.get(id) !== undefined, b.id);
    const offered = await a.page.evaluate(([x, z]) => (window as any).arena.view.options(x, z).map((o: { label: string }) => o.label), [
      spawnTile.x,
      spawnTile.z,
    ] as const);
    assert.equal(
      offered.some((l: string) => l.startsWith("Attack Wary Wil")),
      false,
      offered.join(", "),
    );
    put(a.id, 150, 140);
    put(b.id, 152, 140);
    await a.page.waitForFunction(() => (window as any).arena.game.me.position.x === 150);
    world.players.get(b.id)!.vars.autoRetaliate = false;
    await chooseOnPlayer(a, b, "Attack Wary Wil");
    const pa = world.players.get(a.id)!;
    for (let i = 0; i < 100 && world.players.get(b.id)!.lastHitTick < 0; i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(pa.action, { type: "attack", targetId: b.id });
    assert.ok(world.players.get(b.id)!.lastHitTick >= 0, "the blow was struck");
    await screenshot(a.page, "pvp-attack");
    await a.page.close();
    await b.page.close();
  });
});
