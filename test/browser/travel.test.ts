import assert from "node:assert/strict";
import { routesIn } from "../../src/features/travel/travelManifest.js";
import { addItem, emptyInventory } from "../../src/game/inventory.js";
import { place, theWorld } from "../helpers/worldRoom.js";
import { browserSuite, chooseOnTile, playAsGuest } from "./browser.js";

/** Travel in Debian's Chromium: the carter's Travel-with, from the features' menu entries, and the ride it sends. */
describe("web client in Chromium: travel", function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it("right-clicking the carter offers Travel-with; the ride is paid and the page stands at the destination, told in the chat", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Cart Rider");
    const { page } = a;
    const room = await theWorld();
    const world = room.world;
    try {
      const p = world.players.get(a.id)!;
      p.inventory = addItem(emptyInventory(), "coins", 15, world.data.items).inventory;
      const odo = [...world.npcs.values()].find((n) => n.defId === "carter_odo")!;
      place(room, p.id, { x: odo.position.x - 1, z: odo.position.z });
      await page.waitForFunction((id) => (window as any).arena.game.net.state.npcs.get(id) !== undefined, odo.id);
      await chooseOnTile(page, odo.position.x, odo.position.z, "Travel-with Odo the Carter");
      await page.waitForFunction(() => document.querySelector("#chat .log")?.textContent?.includes("You travel to the Duelling Yard for 10 coins"));
      const to = routesIn(world).get("carter_odo")!.to;
      await page.waitForFunction(([x, z]) => (window as any).arena.game.me.position.x === x && (window as any).arena.game.me.position.z === z, [to.x, to.z]);
      assert.equal(
        p.inventory.reduce((n, s) => n + (s?.itemId === "coins" ? s.quantity : 0), 0),
        5,
      );
    } finally {
      await page.close();
    }
  });
});
