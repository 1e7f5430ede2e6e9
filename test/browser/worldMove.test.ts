import assert from "node:assert/strict";
import { matchMaker } from "@colyseus/core";
import { theWorld } from "../helpers/worldRoom.js";
import { browserSuite, playAsGuest } from "./browser.js";

/**
 * The web client when its world moves to another process (a drain, docs/DEPLOYMENT.md "Upgrades no
 * player notices"), in Debian's Chromium: the world room lets everyone go as a drain does
 * (`world:moving`, close 4103) and the world runs again (here on the same server, standing in for
 * the process that takes it); the page is back in it by itself, as the same character with the
 * same pack, without a word or a screen about it.
 */
describe("web client in Chromium: a world that moves", function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it("is joined again at once and quietly, as the same character in the same world, its pack kept", async () => {
    const { page, id } = await playAsGuest(suite.browser, suite.server.url, "Mover");
    const problems: string[] = [];
    page.on("pageerror", (err) => problems.push(err.message));
    const net = () => page.evaluate(() => ({ roomId: (window as any).arena.game.net.room.roomId, me: (window as any).arena.game.net.me }));
    const before = await net();
    await page.evaluate(() => ((window as any).movedFrom = (window as any).arena.game.net.room));

    const room = await theWorld();
    const worldId = room.spec.id;
    assert.equal(await room.moveOut(["127.0.0.1:1"]), 1, "one player moved out");
    await room.disconnect();
    await matchMaker.handleCreateRoom("world", { worldId }, undefined, before.roomId);

    // A new room object on the page, the same world and character, the pack as it was.
    await page.waitForFunction(() => {
      const net = (window as any).arena.game.net;
      return net.room !== (window as any).movedFrom && net.room.connection.isOpen && net.me;
    });
    const after = await net();
    assert.equal(after.roomId, before.roomId);
    assert.equal(after.me.id, id);
    const pack = (me: any) => JSON.stringify(me.inventory.filter(Boolean).map((s: any) => [s.itemId, s.quantity]));
    assert.equal(pack(after.me), pack(before.me));
    assert.equal(await page.locator("#ended").isHidden(), true, "no screen saying the game ended");
    await page.waitForSelector("#banner", { state: "hidden" });
    const log = (await page.locator("#chat .log").textContent()) ?? "";
    assert.doesNotMatch(log, /Reconnected|Could not reconnect/, "nothing said about it");
    assert.deepEqual(problems, []);
    await page.close();
  });
});
