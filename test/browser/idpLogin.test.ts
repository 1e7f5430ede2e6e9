import assert from "node:assert/strict";
import { APP_ID, pemOf, providerKey, providerToken } from "../http/idpProvider.js";
import { browserSuite, screenshot } from "./browser.js";

/** With an identity provider configured, the page trades the provider's token for a server token; a bad one reads as its refusal. */
describe("web client in Chromium: identity-provider login", function () {
  this.timeout(120_000);
  const suite = browserSuite({ PUBLIC_IDP_APP_ID: APP_ID, IDP_VERIFICATION_KEY: pemOf(providerKey) });

  it("asks for the provider's token, refuses a bad one readably, and plays with a good one", async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1060, height: 760 } });
    await page.goto(suite.server.url);
    await page.locator("#idp-row").waitFor();
    assert.match((await page.textContent("#login-mode")) ?? "", /identity provider/);

    await page.fill("#idp-token", "not-a-token");
    await page.click("#play");
    const refusal = page.locator("#login-error", { hasText: "Could not join the world" });
    await refusal.waitFor();
    assert.match((await refusal.textContent()) ?? "", /INVALID_IDP_TOKEN/);
    assert.equal(await page.isHidden("#game"), true);

    await page.fill("#idp-token", await providerToken(providerKey, { sub: "did:privy:browser" }));
    await page.click("#play");
    await page.waitForSelector("#game:not([hidden])", { timeout: 20_000 });
    const characterId = await page.evaluate(() => (window as any).arena.game.me.id as string);
    // The character is the provider user's account's, not a guest's.
    const users = await suite.server.ctx.db.prisma.user.findMany({ where: { isGuest: false } });
    assert.equal(users.length, 1);
    const character = await suite.server.ctx.db.prisma.character.findFirst({ where: { id: characterId } });
    assert.equal(character?.accountId, users[0]!.id);
    await screenshot(page, "idp-login");
    await page.close();
  });
});
