import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { mcpConnect } from "../mcp/helpers.js";
import { browserSuite, screenshot } from "./browser.js";

/**
 * MCP's sign-in page in Debian's Chromium: a registered client sends its user to /oauth/authorize;
 * the user clicks "Play as a guest" and the browser lands on the client's redirect with a code,
 * which the client exchanges (PKCE) for a token that plays over /mcp.
 */
describe("web client in Chromium: MCP's sign-in page", function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it("a guest signs in on the page; the code comes back to the client and buys a token that plays", async () => {
    const url = suite.server.url;
    const redirect = "http://127.0.0.1:9/callback";
    const client = (await (
      await fetch(`${url}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ client_name: "Desk <Host>", redirect_uris: [redirect], token_endpoint_auth_method: "none" }),
      })
    ).json()) as { client_id: string };
    const verifier = randomBytes(32).toString("base64url");
    const authorize = new URL(`${url}/oauth/authorize`);
    const params = {
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: redirect,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
      state: "xyz",
    };
    for (const [k, v] of Object.entries(params)) authorize.searchParams.set(k, v);
    const page = await suite.browser.newPage();
    let landed: URL | undefined;
    await page.route(`${redirect}**`, async (route) => {
      landed = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: "text/html", body: "<p>signed in</p>" });
    });
    await page.goto(authorize.href);
    // The client's own name is shown as text, never as markup.
    assert.equal(await page.locator("strong").first().textContent(), "Desk <Host>");
    await screenshot(page, "mcp-sign-in");
    await page.click("#guest");
    await page.locator("text=signed in").waitFor();
    assert.ok(landed);
    assert.equal(landed!.searchParams.get("state"), "xyz");
    const tokens = await (
      await fetch(`${url}/oauth/token`, {
        method: "POST",
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code: landed!.searchParams.get("code")!,
          code_verifier: verifier,
          client_id: client.client_id,
          redirect_uri: redirect,
        }),
      })
    ).json();
    const agent = await mcpConnect(suite.server, tokens.access_token);
    assert.equal((await agent.call("observe")).isError, false);
    await agent.close();
    await page.close();
  });
});
