import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@colyseus/sdk";
import { DEFAULT_WORLD_DIR, ROOT } from "../../src/paths.js";
import { clusterSuite, type ListedWorld } from "../helpers/cluster.js";
import { rest } from "../helpers/rest.js";
import type { ServerProcess } from "../helpers/serverProcess.js";
import { guestToken } from "../helpers/worldClient.js";
import { wsConnect, type WsPlayer } from "../helpers/wsClient.js";

/**
 * Staff and moderation across a cluster: two real server processes on one Redis and one
 * PostgreSQL, each running one world. An act done through process A (its admin REST API), or by
 * the operator's `npm run admin` against the shared database, reaches a player whose session lives
 * on process B, over the real protocols (/ws sockets, HTTP, the SDK's matchmaking).
 */
describe("staff and moderation across a cluster of two processes", function () {
  this.timeout(180_000);
  const WORLD_A = 321;
  const WORLD_B = 322;
  // The processes play a copy of the default world: the content reload below edits its manifests.
  const worldDir = mkdtempSync(path.join(os.tmpdir(), "arena-cluster-world-"));
  cpSync(DEFAULT_WORLD_DIR, worldDir, { recursive: true });
  const cluster = clusterSuite({ worlds: `${WORLD_A},${WORLD_B}`, secret: "cluster-staff-secret-".padEnd(48, "s"), env: { WORLD: worldDir } });
  const sockets: WsPlayer[] = [];
  /** A runs WORLD_A (and serves the admin's REST calls), B runs WORLD_B (where the players play). */
  let A: ServerProcess;
  let B: ServerProcess;
  let admin: Account;

  interface Account {
    token: string;
    accountId: string;
    name: string;
    characterId: string;
  }

  const sql = cluster.sql;

  /** A guest account (made through `via`) with a character of the name given; its role set in the shared database. */
  const account = async (via: ServerProcess, name: string, role?: "moderator" | "admin"): Promise<Account> => {
    const who = await guestToken(via);
    const made = await rest(via, "POST", "/api/character", who.token, { name });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    if (role) await sql(`UPDATE "users" SET "roles" = $2 WHERE "id" = $1`, [who.accountId, [role]]);
    return { ...who, name, characterId: made.body.character.id as string };
  };

  /** A /ws socket to `p` with the account's token, for world `world`, playing its named character. */
  const ws = async (p: ServerProcess, who: Account, world: number) => {
    const s = await wsConnect(p.port, `?token=${encodeURIComponent(who.token)}&world=${world}&characterId=${who.characterId}&updates=changes`);
    sockets.push(s);
    return s;
  };

  /** In the world: `authenticated` and the first `player:sync` arrived. */
  const play = async (p: ServerProcess, who: Account, world: number) => {
    const s = await ws(p, who, world);
    const auth = await s.next("*", (f) => f.type === "authenticated" || f.type === "error" || f.type === "world:redirect");
    assert.equal(auth.type, "authenticated", `${who.name} joined world ${world} on port ${p.port}: ${JSON.stringify(auth)}`);
    assert.equal(auth.data.playerId, who.characterId);
    await s.next("player:sync");
    return s;
  };

  /** A /ws join refused: the error frame it got and the close code. */
  const refused = async (p: ServerProcess, who: Account, world: number) => {
    const s = await ws(p, who, world);
    const first = await s.next("*", (f) => f.type === "error" || f.type === "authenticated" || f.type === "world:redirect");
    return { first, close: (await s.closed).code };
  };

  after(() => {
    for (const s of sockets) s.ws.terminate();
    rmSync(worldDir, { recursive: true, force: true });
  });

  before(async function () {
    this.timeout(120_000);
    const allOnline = (ws: ListedWorld[]) => ws.length === 2 && ws.every((w) => w.status === "online");
    const first = await cluster.start();
    await cluster.until(first, allOnline, "both worlds online on the first process");
    const second = await cluster.start();
    // The first process hands one world over to the second: wait until each runs exactly one.
    const deadline = Date.now() + 30_000;
    let shares: number[][] = [];
    for (;;) {
      shares = await Promise.all([first, second].map(async (p) => (await cluster.status(p)).worlds));
      if (shares.every((s) => s.length === 1)) break;
      assert.ok(Date.now() < deadline, `the worlds were not spread one per process: ${JSON.stringify(shares)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    [A, B] = shares[0]![0] === WORLD_A ? [first, second] : [second, first];
    assert.deepEqual((await cluster.status(A)).worlds, [WORLD_A]);
    assert.deepEqual((await cluster.status(B)).worlds, [WORLD_B]);
    for (const p of [A, B]) await cluster.until(p, allOnline, "both worlds online");

    admin = await account(A, "Overseer", "admin");
    const me = await rest(A, "GET", "/api/auth/me", admin.token);
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.staffRole, "admin", "the role is read from the shared database");
  });

  it("a ban given through A's REST API removes the player from B at once; every way back in is refused BANNED until A lifts it", async () => {
    const p = await account(B, "Rulebreaker");
    const onB = await play(B, p, WORLD_B);

    const banned = await rest(A, "POST", "/api/admin/sanctions", admin.token, { name: p.name, kind: "ban", duration: "1h", reason: "botting" });
    assert.equal(banned.status, 201, JSON.stringify(banned.body));
    assert.match(banned.body.message, /^Banned Rulebreaker until .* UTC: botting$/);

    // The session on B: told why, then closed with 4102.
    const err = await onB.next("error", (f) => f.data.code === "BANNED");
    assert.match(err.data.message, /^You are banned until .* UTC: botting$/);
    assert.equal((await onB.closed).code, 4102);
    await cluster.until(B, (ws) => ws.find((w) => w.id === WORLD_B)?.players === 0, "world B empty after the ban");

    // A new /ws connection with the token, to B (its world) and to A (A's world): BANNED, 4102.
    for (const [p2, world] of [
      [B, WORLD_B],
      [A, WORLD_A],
    ] as const) {
      const r = await refused(p2, p, world);
      assert.deepEqual(
        [r.first.type, r.first.data.code, r.close],
        ["error", "BANNED", 4102],
        `/ws to port ${p2.port}, world ${world}: ${JSON.stringify(r.first)}`,
      );
      assert.match(r.first.data.message, /botting/);
    }
    // A framed authenticate on A's /ws, asking for the world on B: refused too (never a redirect to a way in).
    const framed = await wsConnect(A.port, `?world=${WORLD_B}`);
    sockets.push(framed);
    framed.send("authenticate", { token: p.token, characterId: p.characterId, world: WORLD_B }, "a1");
    const answer = await framed.next("*", (f) => f.id === "a1" || f.type === "world:redirect");
    // A redirect is allowed only if following it is refused BANNED as well.
    if (answer.type === "world:redirect") {
      const url = new URL(answer.data.url);
      assert.equal(url.port, String(B.port));
      const followed = await refused(B, p, WORLD_B);
      assert.deepEqual([followed.first.data.code, followed.close], ["BANNED", 4102]);
    } else {
      assert.deepEqual([answer.type, answer.data.code], ["error", "BANNED"]);
      assert.equal((await framed.closed).code, 4102);
    }

    // REST with the same Bearer token, on B and on A: 403 BANNED.
    for (const p2 of [B, A]) {
      const me = await rest(p2, "GET", "/api/auth/me", p.token);
      assert.deepEqual([me.status, me.body.error?.code], [403, "BANNED"], `GET /api/auth/me on port ${p2.port}`);
      assert.match(me.body.error.message, /botting/);
    }
    // The SDK, through A's matchmaking to the world B runs: refused 4102.
    const sdk = new Client(A.url);
    sdk.auth.token = p.token;
    await assert.rejects(sdk.joinOrCreate("world", { world: WORLD_B, characterId: p.characterId }), (e: { code?: number; message?: string }) => {
      assert.equal(e.code, 4102, `the SDK's join: ${e.code} ${e.message}`);
      assert.match(e.message ?? "", /banned/i);
      return true;
    });

    // Lifted through A: the player joins B again.
    const lifted = await rest(A, "POST", "/api/admin/sanctions/lift", admin.token, { name: p.name, kind: "ban", reason: "appeal granted" });
    assert.equal(lifted.status, 200, JSON.stringify(lifted.body));
    assert.equal(lifted.body.message, "Unbanned Rulebreaker");
    assert.equal((await rest(B, "GET", "/api/auth/me", p.token)).status, 200);
    const back = await play(B, p, WORLD_B);
    back.close();
    await back.closed;

    // Both acts in the shared audit log, written by A's process for the admin.
    const rows = await sql(`SELECT "kind", "actorAccountId" AS actor, "via", "reason" FROM "audit_log" WHERE "targetAccountId" = $1 ORDER BY "id"`, [
      p.accountId,
    ]);
    assert.deepEqual(
      rows.map((r) => [r.kind, r.actor, r.via, r.reason]),
      [
        ["ban", admin.accountId, "rest", "botting"],
        ["unban", admin.accountId, "rest", "appeal granted"],
      ],
    );
  });

  it("a mute given through A reaches a player on B at once: its chat is refused MUTED, nobody hears it; lifted through A, it speaks again", async () => {
    const p = await account(B, "Shouter");
    const listener = await account(B, "Listener");
    const onB = await play(B, p, WORLD_B);
    const ear = await play(B, listener, WORLD_B);
    const heard = ear.mark();

    const muted = await rest(A, "POST", "/api/admin/sanctions", admin.token, { name: p.name, kind: "mute", duration: "30m", reason: "flooding" });
    assert.equal(muted.status, 201, JSON.stringify(muted.body));
    // At once: the very next chat after A answered is refused (no waiting for any frame first).
    for (const [data, id] of [
      [{ message: "can you hear me" }, "c1"],
      [{ message: "/world hello all" }, "c2"],
      [{ message: "psst", channel: "private", to: listener.name }, "c3"],
    ] as const) {
      onB.send("player:chat", data, id);
      const e = await onB.next("*", (f) => f.id === id && (f.type === "error" || f.type === "chat:message"));
      assert.deepEqual([e.type, e.data.code], ["error", "MUTED"], `${id}: ${JSON.stringify(e)}`);
      assert.match(e.data.message, /^You are muted until .* UTC: flooding$/);
    }
    // The player was told, and its standing says so.
    assert.match((await onB.next("notice", (f) => f.data.code === "MUTED")).data.message, /flooding/);
    const standing = (await onB.next("account:standing", (f) => f.data.muted !== null)).data;
    assert.deepEqual([standing.role, standing.muted.reason], ["player", "flooding"]);

    const lifted = await rest(A, "POST", "/api/admin/sanctions/lift", admin.token, { name: p.name, kind: "mute" });
    assert.equal(lifted.status, 200, JSON.stringify(lifted.body));
    onB.send("player:chat", { message: "sorry everyone", channel: "world" }, "c4");
    const said = await ear.next("chat:message", (f) => f.data.message === "sorry everyone", { since: heard });
    assert.equal(said.data.fromName, p.name);
    await onB.next("notice", (f) => f.data.code === "UNMUTED");
    // What was said while muted reached nobody: the listener heard only the line after the unmute.
    assert.deepEqual(
      ear.frames
        .slice(heard)
        .filter((f) => f.type === "chat:message" && f.data.fromId === p.characterId)
        .map((f) => f.data.message),
      ["sorry everyone"],
    );
  });

  it("npm run admin -- grant, run against the shared PostgreSQL while both servers run, reaches a player online on B (account:standing, moderator)", async () => {
    const p = await account(B, "Promoted");
    const onB = await play(B, p, WORLD_B);
    const since = onB.mark();
    assert.equal((await rest(A, "GET", "/api/auth/me", p.token)).body.staffRole, "player");

    const cli = spawn("npm", ["run", "--silent", "admin", "--", "grant", p.name, "moderator"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "development", DATABASE_URL: cluster.databaseUrl },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    cli.stdout!.on("data", (d) => (out += d));
    cli.stderr!.on("data", (d) => (out += d));
    const code = await new Promise<number | null>((resolve, reject) => {
      cli.once("error", reject);
      cli.once("exit", (c) => resolve(c));
    });
    assert.equal(code, 0, `npm run admin -- grant: ${out}`);
    assert.match(out, new RegExp(`Promoted is now a moderator \\(account ${p.accountId}\\)`));

    // The servers look at the audit log every 2 s: wait for the frame itself.
    const standing = await onB.next("account:standing", (f) => f.data.role === "moderator", { since, timeoutMs: 15_000 });
    assert.deepEqual(standing.data, { role: "moderator", muted: null });
    await onB.next("notice", (f) => f.data.code === "ROLE_CHANGED", { since });
    assert.equal((await rest(A, "GET", "/api/auth/me", p.token)).body.staffRole, "moderator");
    assert.equal((await rest(B, "GET", "/api/admin/reports", p.token)).status, 200, "a moderator reads the reports");
    assert.equal(
      onB.frames.some((f, i) => i >= since && f.type === "error"),
      false,
      `no error: ${JSON.stringify(onB.frames.slice(since))}`,
    );
  });

  it("a content reload through A reaches B within its look at the audit log: B's players are told, and B's store sells at the new price", async () => {
    const p = await account(B, "Shopper");
    const onB = await play(B, p, WORLD_B);
    const keeper = await onB.next("world:update", (f) => f.data.npcs?.some((n: { npcId: string }) => n.npcId === "shopkeeper"));
    const keeperId = keeper.data.npcs.find((n: { npcId: string }) => n.npcId === "shopkeeper").id;
    const hatchetPrice = (f: { data: { items: Array<{ itemId: string; price: number }> } }) => f.data.items.find((i) => i.itemId === "bronze_hatchet")!.price;
    let since = onB.mark();
    onB.send("player:action", { action: "store", targetId: keeperId });
    assert.equal(hatchetPrice(await onB.next("store:open", () => true, { since })), 32);

    const file = path.join(worldDir, "manifests", "stores.json");
    const stores = JSON.parse(readFileSync(file, "utf8"));
    stores.find((s: { id: string }) => s.id === "general_store").items[0].price = 45;
    writeFileSync(file, JSON.stringify(stores, null, 2));
    since = onB.mark();
    const reload = await rest(A, "POST", "/api/admin/content/reload", admin.token, { reason: "cluster prices" });
    assert.equal(reload.status, 200, JSON.stringify(reload.body));
    assert.deepEqual(
      reload.body.worlds.map((w: { world: number }) => w.world),
      [WORLD_A],
      "A applies it to its own world",
    );

    // B sees the audit row (every 2 s), loads the same version from its manifests and applies it.
    const told = await onB.next("system:broadcast", (f) => f.data.kind === "content", { since, timeoutMs: 15_000 });
    assert.equal(told.data.contentVersion, reload.body.version);
    assert.deepEqual((await onB.next("store:close", () => true, { since })).data, { storeId: "general_store", reason: "content_changed" });
    since = onB.mark();
    onB.send("player:action", { action: "store", targetId: keeperId });
    assert.equal(hatchetPrice(await onB.next("store:open", () => true, { since })), 45);
  });
});
