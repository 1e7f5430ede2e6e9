import assert from "node:assert/strict";
import { xpForLevel } from "../../src/game/skills.js";
import { refreshLevels } from "../../src/game/world/xp.js";
import { place, setRng, theWorld, ticks } from "../helpers/worldRoom.js";
import { browserSuite, chooseOnTile, playAsGuest } from "./browser.js";

/** Thieving in Debian's Chromium: the menus' Pickpocket and Steal-from, what the server then gives, the words in the chat. */
describe("web client in Chromium: thieving", function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it("right-clicking a villager offers Pickpocket and the fish stall Steal-from; each steals, told in the chat", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Light Fingers");
    const { page } = a;
    const room = await theWorld();
    const world = room.world;
    setRng(room, 0.99); // no wandering off, no thief caught, the last loot entry
    try {
      const p = world.players.get(a.id)!;
      p.xp.thieving = xpForLevel(5);
      refreshLevels(p);
      const v = [...world.npcs.values()].find((n) => n.defId === "villager")!;
      while (v.wanderTo) await ticks(room, 1); // a walk under way ends; no new one starts
      place(room, p.id, { x: v.position.x - 1, z: v.position.z });
      await page.waitForFunction((id) => (window as any).arena.game.net.state.npcs.get(id) !== undefined, v.id);
      await chooseOnTile(page, v.position.x, v.position.z, "Pickpocket Villager");
      await page.waitForFunction(() => document.querySelector("#chat .log")?.textContent?.includes("You pick the villager's pocket"));
      assert.equal(p.xp.thieving - xpForLevel(5), 8);

      const stall = world.stations.get("stall:fish_stall")!;
      place(room, p.id, { x: stall.tile.x - 1, z: stall.tile.z });
      await page.waitForFunction((id) => (window as any).arena.game.net.state.stations.get(id) !== undefined, stall.id);
      await chooseOnTile(page, stall.tile.x, stall.tile.z, "Steal-from Fishmonger's stall");
      await page.waitForFunction(() => document.querySelector("#chat .log")?.textContent?.includes("You steal from the fishmonger's stall"));
      assert.ok(p.inventory.some((s) => s?.itemId === "raw_trout"));
      assert.equal(p.xp.thieving - xpForLevel(5), 8 + 16);
    } finally {
      (world as unknown as { rng: () => number }).rng = Math.random;
      await page.close();
    }
  });
});
