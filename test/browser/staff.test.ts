import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { rest } from "../helpers/rest.js";
import { guestToken } from "../helpers/worldClient.js";
import { theWorld } from "../helpers/worldRoom.js";
import { browserSuite, chooseOnPlayer, playAsGuest, screenshot, type PagePlayer } from "./browser.js";

type Role = "moderator" | "admin";

/**
 * Staff and moderation in the web client, in Debian's Chromium, headless, against a real server:
 * the staff panel for moderators only (roles set in the database), a mute from the panel felt by
 * the player's page (marked, chat refused), a report filed from a player's menu and handled in the
 * panel, an admin's broadcast across the top, a ban ending a page on the ban screen, and a restart
 * counted down, closed with 1012 and joined again. Screenshots go to test-results/screenshots.
 */
describe("web client in Chromium: staff and moderation", function () {
  this.timeout(120_000);
  const suite = browserSuite();

  /** A guest account whose role is set in the database before it plays. */
  const staffAccount = async (role: Role) => {
    const who = await guestToken(suite.server);
    await suite.server.ctx.db.prisma.user.update({ where: { id: who.accountId }, data: { roles: [role] } });
    return who;
  };

  /** A page of an account whose role is set in the database before it plays. */
  const playAs = async (browser: Browser, name: string, role: Role): Promise<PagePlayer> =>
    playAsGuest(browser, suite.server.url, name, await staffAccount(role));

  /** The row of a player in the moderator's open staff panel. */
  const rowOf = (mod: PagePlayer, name: string) => mod.page.locator(`#staff [data-player="${name}"]`);
  const act = (mod: PagePlayer, name: string, button: string) => rowOf(mod, name).getByRole("button", { name: button, exact: true }).click();
  const panelSays = (mod: PagePlayer, text: string, error = false) =>
    mod.page.locator(`#staff .status-line${error ? ".error" : ":not(.error)"}`, { hasText: text }).waitFor();

  /** Open the staff panel and wait until it lists `name`. */
  const openPanelWith = async (mod: PagePlayer, name: string) => {
    await mod.page.click("#staff-toggle");
    await mod.page.locator("#staff").waitFor();
    await rowOf(mod, name).waitFor();
  };

  it("a moderator's page shows the staff toggle and panel, listing who is online; a player's page shows neither", async () => {
    const player = await playAsGuest(suite.browser, suite.server.url, "Plain Pia");
    const mod = await playAs(suite.browser, "Mod Max", "moderator");
    await mod.page.locator("#staff-toggle").waitFor({ state: "visible" });
    await openPanelWith(mod, player.name);
    await rowOf(mod, mod.name).waitFor();
    assert.match((await mod.page.locator("#staff .staff-title").textContent()) ?? "", /moderator/);
    await screenshot(mod.page, "staff-panel");

    // The player's page never heard it is staff: no toggle, no panel.
    assert.equal(await player.page.evaluate(() => (window as any).arena.game.standing.role), "player");
    assert.equal(await player.page.locator("#staff-toggle").isHidden(), true);
    assert.equal(await player.page.locator("#staff").isHidden(), true);
    // The panel closes with its toggle.
    await mod.page.click("#staff-toggle");
    await mod.page.locator("#staff").waitFor({ state: "hidden" });
    await Promise.all([player.page.close(), mod.page.close()]);
  });

  it("the moderator mutes a player from the panel: its page shows the mute and until when, and its chat is refused MUTED", async () => {
    const player = await playAsGuest(suite.browser, suite.server.url, "Loud Lou");
    const mod = await playAs(suite.browser, "Mod Meg", "moderator");
    await openPanelWith(mod, player.name);

    // No reason: the panel asks for one. Muting oneself: the server's refusal reads in the panel.
    await act(mod, player.name, "Mute");
    await panelSays(mod, `Give a reason to mute ${player.name}`, true);
    await mod.page.fill("#staff .reason", "shouting in the market");
    await act(mod, mod.name, "Mute");
    await panelSays(mod, "You cannot mute yourself (TARGET_IS_STAFF)", true);

    await mod.page.selectOption("#staff .duration", "30m");
    await act(mod, player.name, "Mute");
    await panelSays(mod, `Muted ${player.name} until`);

    const { page } = player;
    await page.locator(".chat form.muted .muted-mark", { hasText: "Muted" }).waitFor();
    const placeholder = (await page.locator(".chat form input").first().getAttribute("placeholder")) ?? "";
    assert.match(placeholder, /^You are muted until .+: shouting in the market$/);
    const standing = await page.evaluate(() => (window as any).arena.game.standing);
    assert.equal(standing.role, "player");
    assert.ok(Date.parse(standing.muted.until) > Date.now() + 25 * 60_000, `a 30 minute mute: ${standing.muted.until}`);
    await page.locator(".chat .log .system", { hasText: "You are muted until" }).waitFor();

    await page.fill(".chat form input", "let me speak");
    await page.press(".chat form input", "Enter");
    const refusal = page.locator(".chat .log .error", { hasText: "(MUTED)" });
    await refusal.waitFor();
    assert.match((await refusal.textContent()) ?? "", /^You are muted until .+: shouting in the market \(MUTED\)$/);
    await screenshot(page, "staff-muted");

    // Unmuted from the panel: the mark goes.
    await act(mod, player.name, "Unmute");
    await panelSays(mod, `Unmuted ${player.name}`);
    await page.locator(".chat form:not(.muted)").waitFor();
    assert.equal(await page.locator(".chat .muted-mark").isHidden(), true);
    await Promise.all([player.page.close(), mod.page.close()]);
  });

  it("a player reports another from the player's menu and sees the answer; the moderator claims and closes it in the panel", async () => {
    const reporter = await playAsGuest(suite.browser, suite.server.url, "Rex Report");
    const rude = await playAsGuest(suite.browser, suite.server.url, "Rude Rudi");
    const mod = await playAs(suite.browser, "Mod Moe", "moderator");

    // What Rudi says within earshot goes with the report.
    await rude.page.fill(".chat form input", "give me your coins");
    await rude.page.press(".chat form input", "Enter");
    await reporter.page.locator(".chat .log .local", { hasText: "Rude Rudi: give me your coins" }).waitFor();

    // Reporting oneself is refused, in the window.
    await reporter.page.click(".chat form button.report");
    await reporter.page.fill("#dialog .report-name", reporter.name);
    await reporter.page.fill("#dialog .report-reason", "testing");
    await reporter.page.click('#dialog button:has-text("Send report")');
    await reporter.page.locator("#dialog .answer.error", { hasText: "(SELF_REPORT)" }).waitFor();

    await chooseOnPlayer(reporter, rude, `Report ${rude.name}`);
    assert.equal(await reporter.page.inputValue("#dialog .report-name"), rude.name);
    await reporter.page.fill("#dialog .report-reason", "demands my coins");
    await reporter.page.click('#dialog button:has-text("Send report")');
    await reporter.page.locator("#dialog .answer:not(.error)", { hasText: `Thank you: your report of ${rude.name} reaches the staff` }).waitFor();
    await screenshot(reporter.page, "staff-report-sent");

    await openPanelWith(mod, rude.name);
    const entry = mod.page.locator(`#staff .report-entry[data-target="${rude.name}"]`);
    await entry.waitFor();
    assert.match((await entry.textContent()) ?? "", /demands my coins/);
    await entry.locator("summary").click();
    await entry.locator(".chat-line", { hasText: "Rude Rudi: give me your coins" }).waitFor();
    // Closing needs a resolution.
    await entry.getByRole("button", { name: "Claim", exact: true }).click();
    await panelSays(mod, `Report of ${rude.name} claimed`);
    await entry
      .locator("div", { hasText: `claimed by ${mod.name}` })
      .first()
      .waitFor();
    await entry.getByRole("button", { name: "Close", exact: true }).click();
    await panelSays(mod, "Say how the report was resolved", true);
    await entry.locator(".resolution").fill("warned the player");
    await entry.getByRole("button", { name: "Close", exact: true }).click();
    await panelSays(mod, `Report of ${rude.name} closed`);
    await entry.waitFor({ state: "detached" });
    const row = await suite.server.ctx.db.prisma.playerReport.findFirstOrThrow({ where: { targetName: rude.name } });
    assert.deepEqual([row.status, row.resolution, row.claimedByName], ["closed", "warned the player", mod.name]);
    await Promise.all([reporter.page.close(), rude.page.close(), mod.page.close()]);
  });

  it("an admin's broadcast shows across the top of a page for a few seconds and as a line in its chat", async () => {
    const player = await playAsGuest(suite.browser, suite.server.url, "Hear Hal");
    const admin = await staffAccount("admin");
    const made = await rest(suite.server, "POST", "/api/character", admin.token, { name: "Admin Ada" });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const sent = await rest(suite.server, "POST", "/api/admin/broadcast", admin.token, { message: "Double xp this weekend!" });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));

    const { page } = player;
    const banner = page.locator("#broadcast", { hasText: "Double xp this weekend!" });
    await banner.waitFor();
    assert.match((await banner.textContent()) ?? "", /^Message from Admin Ada/);
    await page.locator(".chat .log .broadcast", { hasText: "[broadcast] Admin Ada: Double xp this weekend!" }).waitFor();
    await screenshot(page, "staff-broadcast");
    await banner.waitFor({ state: "hidden", timeout: 20_000 });
    await page.close();
  });

  it("a kick from the panel ends the player's page saying who removed it", async () => {
    const player = await playAsGuest(suite.browser, suite.server.url, "Kick Kim");
    const mod = await playAs(suite.browser, "Mod Kay", "moderator");
    await openPanelWith(mod, player.name);
    await act(mod, player.name, "Kick");
    await panelSays(mod, `Kicked ${player.name}`);
    const { page } = player;
    await page.locator("#ended").waitFor();
    assert.equal(await page.locator("#ended-title").textContent(), "Removed from the world");
    assert.equal(await page.locator("#ended-message").textContent(), `You were removed from the world by ${mod.name}`);
    await Promise.all([player.page.close(), mod.page.close()]);
  });

  it("a ban from the panel closes the player's page on the ban screen with the reason and the end; the player is out of the world", async () => {
    const player = await playAsGuest(suite.browser, suite.server.url, "Bot Bob");
    const mod = await playAs(suite.browser, "Mod Mo", "moderator");
    await openPanelWith(mod, player.name);
    await mod.page.selectOption("#staff .duration", "2w");
    await mod.page.fill("#staff .reason", "botting in the mine");
    await act(mod, player.name, "Ban");
    await panelSays(mod, `Banned ${player.name} until`);

    const { page } = player;
    await page.locator("#ended").waitFor();
    assert.equal(await page.locator("#ended-title").textContent(), "Banned");
    assert.match((await page.locator("#ended-message").textContent()) ?? "", /^You are banned until \d{4}-\d\d-\d\d \d\d:\d\d UTC: botting in the mine$/);
    assert.equal(await page.locator("#game").isHidden(), true);
    await screenshot(page, "staff-banned");
    const world = await theWorld();
    assert.equal(world.world.players.get(player.id), undefined, "the player left the world");
    // The panel, refreshed, no longer lists the player.
    await mod.page.click('#staff button:has-text("Refresh")');
    await rowOf(mod, player.name).waitFor({ state: "detached" });
    await Promise.all([player.page.close(), mod.page.close()]);
  });

  it("a restart counts down on the page, closes it with 1012, and the page says so and joins again by itself", async () => {
    const player = await playAsGuest(suite.browser, suite.server.url, "Stay Stan");
    const admin = await staffAccount("admin");
    const plan = await rest(suite.server, "POST", "/api/admin/restart", admin.token, { inSeconds: 10, reason: "new content" });
    assert.equal(plan.status, 202, JSON.stringify(plan.body));

    const { page } = player;
    await page.locator("#broadcast.restart", { hasText: "The server restarts in 10 seconds: new content" }).waitFor();
    await page.locator("#broadcast .countdown", { hasText: /Restarting in 0:0\d/ }).waitFor();
    await page.locator(".chat .log .broadcast", { hasText: "[restart] The server restarts in 10 seconds" }).waitFor();
    await screenshot(page, "staff-restart-countdown");
    await page.locator("#banner", { hasText: "The server is restarting" }).waitFor({ timeout: 30_000 });
    await screenshot(page, "staff-restarting");
    await page.locator(".chat .log div", { hasText: "Reconnected after the server's restart." }).waitFor({ timeout: 60_000 });
    await page.locator("#banner").waitFor({ state: "hidden" });
    await page.locator("#broadcast").waitFor({ state: "hidden" });
    const world = await theWorld();
    assert.ok(world.world.players.has(player.id), "the same character is back in the world");
    // The page plays on over the new connection: its chat reaches the server again.
    await page.fill(".chat form input", "back again");
    await page.press(".chat form input", "Enter");
    await page.locator(".chat .log .local", { hasText: "Stay Stan: back again" }).waitFor();
    await page.close();
  });
});
