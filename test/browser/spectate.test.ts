import assert from "node:assert/strict";
import type { WorldClient } from "../../rooms/worldSessions.js";
import { newAgent } from "../helpers/agentWorld.js";
import { rest } from "../helpers/rest.js";
import { theWorld } from "../helpers/worldRoom.js";
import { browserSuite, screenshot } from "./browser.js";

/**
 * Watch mode of the web client, in Debian's Chromium, headless, against a real server: a guest
 * registers a built-in agent and mints a watch link; the page opened at it (no sign-in) names the
 * agent in its banner, shows its goal or what it does and its activity's lines, and draws the world
 * from the agent's view, the agent where the server has it. Nothing the viewer clicks or types is
 * sent (the server answers every spectator's message with SPECTATOR: none but the test's own
 * probe). When the agent stops, the page says the watch ended; started again, it is watched again.
 */
describe("web client in Chromium: watching an agent through a watch link", function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it("the watch link shows the agent, its goal and activity, acts on nothing, and says when the watch ended", async () => {
    const room = await theWorld();
    const { owner, a } = await newAgent(suite.server, room, "Watched Wes");
    const link = await rest(suite.server, "POST", `/api/agents/${a.agentId}/watch`, owner.token, {});
    assert.equal(link.status, 201, JSON.stringify(link.body));
    const name = link.body.name as string;
    assert.match(link.body.watchUrl, /^\/#watch=/);

    // What the server sends each spectator's client: a message it sent is answered `error` SPECTATOR.
    const told: Array<{ type: string; data: any }> = [];
    const watchers = room.watchers;
    const watch = watchers.watch.bind(watchers);
    watchers.watch = (client: WorldClient) => {
      const send = client.send.bind(client) as (type: string, data: unknown, options?: unknown) => void;
      (client as unknown as { send: typeof send }).send = (type, data, options) => {
        told.push({ type, data });
        send(type, data, options);
      };
      return watch(client);
    };
    const refusals = () => told.filter((m) => m.type === "error" && m.data?.code === "SPECTATOR");

    const page = await suite.browser.newPage({ viewport: { width: 1060, height: 760 } });
    const problems: string[] = [];
    page.on("pageerror", (err) => problems.push(err.message));
    try {
      await page.goto(`${suite.server.url}${link.body.watchUrl}`);

      // The banner names the agent; the page signed nobody in.
      await page.locator(".watch-banner:not(.away)", { hasText: `Watching ${name}` }).waitFor({ timeout: 30_000 });
      assert.equal(await page.locator("#login").isHidden(), true);
      assert.equal(await page.evaluate(() => sessionStorage.getItem("arena.token")), null, "no login was made or kept");
      assert.equal(await page.evaluate(() => (window as any).arena.game.me.id), a.characterId, "the page's `me` is the agent");

      // The watch panel: a goal or a doing line, and activity lines the server wrote.
      await page.waitForFunction(
        () =>
          document.querySelector(".watch-panel .activity-line") !== null &&
          (document.querySelector(".watch-panel .watch-goal b") !== null || document.querySelector(".watch-panel .watch-doing")?.textContent !== "—"),
        undefined,
        { timeout: 30_000 },
      );
      const shown = await page.locator(".watch-panel .activity-line .text").allTextContents();
      const written = suite.server.ctx.activity.recent(a.characterId).map((e) => e.text);
      assert.ok(
        shown.some((t) => written.includes(t)),
        `the panel's lines are the agent's activity: ${JSON.stringify({ shown, written })}`,
      );
      const kinds = await page.locator(".watch-panel .activity-line .kind").allTextContents();
      assert.ok(
        kinds.every((k) => ["goal", "doing", "note", "event"].includes(k)),
        JSON.stringify(kinds),
      );

      // The view holds the agent (from the world:update mirror) where the server has it, and draws it.
      const agentTile = () => room.world.players.get(a.characterId)!.tile;
      let near = false;
      let last = { x: NaN, z: NaN, tick: 0 };
      for (let look = 0; look < 30 && !near; look++) {
        const at = agentTile();
        last = await page.evaluate((id) => {
          const net = (window as any).arena.game.net;
          const p = net.state.players.get(id);
          return { x: p?.x ?? NaN, z: p?.z ?? NaN, tick: net.state.tick as number };
        }, a.characterId);
        near = Math.max(Math.abs(last.x - at.x), Math.abs(last.z - at.z)) <= 1;
        // Not yet: look again after the page's next world:update.
        if (!near) await page.waitForFunction((tick) => (window as any).arena.game.net.state.tick > tick, last.tick);
      }
      assert.ok(near, `the page's agent at ${JSON.stringify(last)}, the server's at ${JSON.stringify(agentTile())}`);
      const mirrored = await page.evaluate((id) => {
        const net = (window as any).arena.game.net;
        const p = net.state.players.get(id);
        return { name: p.name, isAgent: p.isAgent, roomEntities: net.room.state.players?.size ?? 0 };
      }, a.characterId);
      assert.deepEqual(mirrored, { name, isAgent: true, roomEntities: 0 }, "the room's state holds nothing for a spectator: the page draws from its mirror");
      await page.waitForFunction((id) => (window as any).arena.view.figuresOnPage().some((f: any) => f.id === id), a.characterId);
      await screenshot(page, "watch-agent");

      // Read-only: clicks on the map, the minimap, a right click, the pack and keys send nothing.
      const canvas = (await page.locator("#world").boundingBox())!;
      await page.mouse.click(canvas.x + canvas.width / 2 + 90, canvas.y + canvas.height / 2 + 40);
      await page.mouse.click(canvas.x + canvas.width / 2 - 60, canvas.y + canvas.height / 2 - 50, { button: "right" });
      await page.mouse.dblclick(canvas.x + canvas.width / 2 + 30, canvas.y + canvas.height / 2);
      const minimap = (await page.locator("#minimap").boundingBox())!;
      await page.mouse.click(minimap.x + 20, minimap.y + 20);
      assert.equal(await page.locator("#menu").isHidden(), true, "no menu of acts opened");
      await page.click('#tabs button:has-text("Pack")');
      const slot = page.locator(".slot[data-item]:not([data-item=''])").first();
      if ((await slot.count()) > 0) await slot.click();
      assert.equal(await page.locator("#menu").isHidden(), true, "the pack's menu did not open");
      await page.click('#tabs button:has-text("Worn")');
      const worn = page.locator("button.worn").first();
      if ((await worn.count()) > 0) await worn.click();
      await page.click("#world", { position: { x: 200, y: 200 } });
      for (const key of ["Enter", "ArrowUp", "ArrowLeft", "Space", "a", "1", "Escape"]) await page.keyboard.press(key);
      await page.keyboard.type("hello everyone");
      await page.keyboard.press("Enter");
      assert.equal(await page.locator(".chat form, .chat input").count(), 0, "no chat box to type in");
      assert.equal(await page.evaluate(() => (window as any).arena.watch.dropped()), 0, "nothing the viewer did reached a send");
      // A probe the test sends itself, straight through the room: answered SPECTATOR. The server
      // answers a client's messages in order, so once it is, anything the clicks sent was answered too.
      const answer = await page.evaluate(
        () =>
          new Promise<string>((resolve) => {
            const net = (window as any).arena.game.net;
            net.on("error", (e: { code: string }) => e.code === "SPECTATOR" && resolve(e.code));
            net.room.send("player:chat", { message: "a spectator's probe", channel: "local" });
          }),
      );
      assert.equal(answer, "SPECTATOR");
      assert.equal(refusals().length, 1, `the server was sent only the test's probe: ${JSON.stringify(refusals())}`);
      await page.click('#tabs button:has-text("Watch")');

      // The agent stops: the page says the watch ended.
      const stopped = await rest(suite.server, "POST", `/api/agent/${a.agentId}/stop`, owner.token);
      assert.equal(stopped.status, 200, JSON.stringify(stopped.body));
      await page.locator(".watch-banner.away", { hasText: "The agent left this world" }).waitFor({ timeout: 30_000 });
      await page.locator(".watch-panel .watch-status.away").waitFor();
      assert.ok(told.some((m) => m.type === "spectate:ended" && m.data.reason === "left"));
      await screenshot(page, "watch-ended");

      // Started again: the page watches it again by itself (it polls the activity feed).
      const started = await rest(suite.server, "POST", `/api/agent/${a.agentId}/start`, owner.token);
      assert.equal(started.status, 200, JSON.stringify(started.body));
      await page.locator(".watch-banner:not(.away)", { hasText: `Watching ${name}` }).waitFor({ timeout: 60_000 });
      await page.waitForFunction((id) => (window as any).arena.game.net.state.players.get(id) !== undefined, a.characterId);
      assert.equal(refusals().length, 1, "still nothing sent by the page");
      assert.deepEqual(problems, [], "no error in the page");
    } finally {
      watchers.watch = watch;
      await page.close();
    }
  });

  it("a watch link opened while the agent is stopped waits for it, then watches it once it plays", async () => {
    const room = await theWorld();
    const { owner, a } = await newAgent(suite.server, room, "Later Lou");
    const link = await rest(suite.server, "POST", `/api/agents/${a.agentId}/watch`, owner.token, { ttlSeconds: 600 });
    assert.equal(link.status, 201, JSON.stringify(link.body));
    assert.equal((await rest(suite.server, "POST", `/api/agent/${a.agentId}/stop`, owner.token)).status, 200);
    const page = await suite.browser.newPage({ viewport: { width: 1060, height: 760 } });
    try {
      await page.goto(`${suite.server.url}${link.body.watchUrl}`);
      await page.locator("#login-mode", { hasText: `${link.body.name} is not in the world right now` }).waitFor({ timeout: 30_000 });
      assert.equal(await page.locator("#play").isHidden(), true, "no Play button: the page signs nobody in");
      assert.equal((await rest(suite.server, "POST", `/api/agent/${a.agentId}/start`, owner.token)).status, 200);
      await page.locator(".watch-banner:not(.away)", { hasText: `Watching ${link.body.name}` }).waitFor({ timeout: 60_000 });
      assert.equal(await page.evaluate(() => (window as any).arena.game.me.id), a.characterId);
    } finally {
      await page.close();
    }
  });

  it("a link that is not a watch token says so and joins nothing", async () => {
    const page = await suite.browser.newPage();
    try {
      await page.goto(`${suite.server.url}/#watch=not-a-token`);
      await page.locator("#login-error", { hasText: "Could not watch" }).waitFor();
      assert.equal(await page.locator("#game").isHidden(), true);
    } finally {
      await page.close();
    }
  });
});
