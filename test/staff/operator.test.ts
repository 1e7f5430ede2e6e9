import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runCli } from "../helpers/cli.js";
import { rest } from "../helpers/rest.js";
import { killServerProcesses, startServerProcess } from "../helpers/serverProcess.js";
import { wsConnect } from "../helpers/wsClient.js";

/**
 * A new operator's first admin, and a scheduled restart, on the real server process with the
 * embedded database: the command line refuses while the server holds the database, works once it
 * is stopped; the admin it made restarts the server, which saves, closes every socket with 1012
 * and exits 0.
 */
const adminCli = (args: string[], env: Record<string, string>) => runCli("src/adminCli.ts", args, env);

describe("the operator: the first admin, then a scheduled restart", function () {
  this.timeout(120_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "arena-operator-"));
  });
  after(async () => {
    await killServerProcesses();
    await rm(dir, { recursive: true, force: true });
  });

  it("grant needs the server stopped on the embedded database; the admin it makes restarts the server: countdown, save, close 1012, exit 0", async () => {
    const env = { DATA_DIR: dir, JWT_SECRET: "operator-test-secret".padEnd(48, "x") };
    let server = await startServerProcess(env);
    const boss = (await rest(server, "POST", "/api/auth/guest")).body as { token: string; accountId: string };
    assert.equal((await rest(server, "POST", "/api/character", boss.token, { name: "Boss" })).status, 201);

    const held = await adminCli(["grant", "Boss", "admin"], env);
    assert.equal(held.code, 1, held.output);
    assert.match(held.output, /holds the embedded database/);
    assert.match(held.output, /POST \/api\/admin\/roles/);

    server.child.kill("SIGTERM");
    assert.equal((await server.exited).code, 0);
    const usage = await adminCli(["grant", "Boss"], env);
    assert.equal(usage.code, 2, usage.output);
    const unknown = await adminCli(["grant", "Nobody", "admin"], env);
    assert.equal(unknown.code, 1);
    assert.match(unknown.output, /UNKNOWN_PLAYER/);
    const granted = await adminCli(["grant", "Boss", "admin"], env);
    assert.equal(granted.code, 0, granted.output);
    assert.match(granted.output, new RegExp(`Boss is now an admin \\(account ${boss.accountId}\\)`));
    const list = await adminCli(["list"], env);
    assert.match(list.output, new RegExp(`admin\\s+${boss.accountId}\\s+Boss`));

    server = await startServerProcess(env);
    const admin = await wsConnect(server.port, `?token=${encodeURIComponent(boss.token)}`);
    assert.deepEqual((await admin.next("account:standing")).data, { role: "admin", muted: null });
    const audit = await rest(server, "GET", "/api/admin/audit?kind=role.grant", boss.token);
    assert.deepEqual(
      audit.body.entries.map((e: any) => [e.actorName, e.via, e.targetName, e.args]),
      [["operator", "cli", "Boss", { from: "player", to: "admin" }]],
    );

    const guest = (await rest(server, "POST", "/api/auth/guest")).body as { token: string };
    const player = await wsConnect(server.port, `?token=${encodeURIComponent(guest.token)}`);
    await player.next("authenticated");
    const plan = await rest(server, "POST", "/api/admin/restart", boss.token, { inSeconds: 10, reason: "new quests" });
    assert.equal(plan.status, 202, JSON.stringify(plan.body));
    const step = await player.next("system:broadcast", (f) => f.data.kind === "restart");
    assert.equal(step.data.message, "The server restarts in 10 seconds: new quests");
    assert.equal((await player.closed).code, 1012);
    assert.equal((await admin.closed).code, 1012);
    assert.deepEqual(await server.exited, { code: 0, signal: null });
    assert.match(server.output(), /every player saved and closed/);

    // Started again by its supervisor (here, the test): the restart is in the audit log.
    server = await startServerProcess(env);
    const after = await rest(server, "GET", "/api/admin/audit?kind=restart", boss.token);
    assert.deepEqual(
      after.body.entries.map((e: any) => [e.actorName, e.reason]),
      [["Boss", "new quests"]],
    );
  });
});
