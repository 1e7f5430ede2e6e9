import assert from "node:assert/strict";
import { runCli } from "../helpers/cli.js";
import { clusterSuite, type ListedWorld } from "../helpers/cluster.js";
import { plain } from "../helpers/itemLedger.js";
import { rest } from "../helpers/rest.js";
import type { ServerProcess } from "../helpers/serverProcess.js";
import { countOf, offer, openTrade, slotOf } from "../helpers/tradeSteps.js";
import { sdkTrader, wsTrader } from "../helpers/traders.js";
import { guestToken, joinWorld, type WorldPlayer } from "../helpers/worldClient.js";
import { wsConnect, type WsPlayer } from "../helpers/wsClient.js";

/**
 * A drain (docs/DEPLOYMENT.md "Upgrades no player notices") on a cluster of three real processes:
 * the drained process's world moves to another process with its players, who are told
 * `world:moving` and closed with 4103, and come back on its new host by themselves (the /ws
 * player with `resume` and the token it was given, on any process; the SDK player joining again);
 * the trade under way is called off with nothing moved; the drained process exits 0.
 */
describe("draining a process of the cluster: its world moves with its players", function () {
  this.timeout(180_000);
  const cluster = clusterSuite({ worlds: "401,402,403", secret: "drain-test-secret-".padEnd(48, "d") });
  const sockets: WsPlayer[] = [];
  after(() => {
    for (const s of sockets) s.ws.terminate();
  });

  /** `npm run admin -- <args>` against the cluster's Redis: its exit code and what it printed. */
  const adminCli = (args: string[]) => runCli("src/adminCli.ts", args, { REDIS_URL: cluster.redisUrl, DATABASE_URL: cluster.databaseUrl, LOG_LEVEL: "warn" });

  /** Three processes, one world each. */
  async function threeProcesses(): Promise<{ procs: ServerProcess[]; hostOf: Map<number, ServerProcess>; ids: Map<ServerProcess, string> }> {
    const first = await cluster.start();
    await cluster.until(first, (ws) => ws.length === 3 && ws.every((w) => w.status === "online"), "every world online");
    const procs = [first, ...(await Promise.all([cluster.start(), cluster.start()]))];
    return { procs, ...(await cluster.oneWorldEach(procs)) };
  }

  /** The /ws player takes its session back with `resume` through `via`, following a redirect; the socket it ends on. */
  async function resumeWs(via: ServerProcess, resumeToken: string): Promise<{ ws: WsPlayer; auth: any }> {
    let port = via.port;
    let query = "";
    const deadline = Date.now() + 30_000;
    for (;;) {
      const ws = await wsConnect(port, query);
      sockets.push(ws);
      for (;;) {
        const at = ws.mark();
        ws.send("resume", { resumeToken }, "r");
        const answer = await ws.next("*", (f) => f.id === "r" || f.type === "world:redirect", { since: at, timeoutMs: 20_000 });
        if (answer.type === "authenticated") return { ws, auth: answer.data };
        if (answer.type === "world:redirect") {
          const url = new URL(answer.data.url);
          port = Number(url.port);
          query = url.search;
          break;
        }
        // Not running yet (being moved): the token is still good, and the socket stays open.
        assert.equal(answer.data.code, "WORLD_UNAVAILABLE", JSON.stringify(answer));
        assert.ok(Date.now() < deadline, "the world never ran again");
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  /** The SDK player joins its world again (the same token and character), through `via`, once it runs again. */
  async function rejoinSdk(via: ServerProcess, who: { token: string; accountId: string }, world: number, characterId: string): Promise<WorldPlayer> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        return await joinWorld({ url: via.url }, { world, characterId }, who);
      } catch (err) {
        assert.match((err as Error).message, /not running|moving|try again/i);
        assert.ok(Date.now() < deadline, `world ${world} never ran again: ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  it("moves the drained process's world to another process: the players are back by themselves, nothing is lost, and the process exits 0", async () => {
    const { procs, hostOf, ids } = await threeProcesses();
    const world = 401;
    const drained = hostOf.get(world)!;
    const [stay, other] = procs.filter((p) => p !== drained) as [ServerProcess, ServerProcess];

    // An admin (its role set in the shared database), and a player who may not drain.
    const admin = await guestToken(stay);
    await cluster.sql(`UPDATE "users" SET "roles" = $2 WHERE "id" = $1`, [admin.accountId, ["admin"]]);
    await rest(stay, "POST", "/api/character", admin.token, { name: "Drainer" });
    const nobody = await guestToken(stay);
    await rest(stay, "POST", "/api/character", nobody.token, { name: "Nobody" });

    // An SDK player and a /ws player in the world, on its process, in a trade with coins offered.
    const sdkWho = await guestToken(drained);
    const sdk = await sdkTrader({ url: drained.url }, sdkWho, { options: { world } });
    const wsWho = await guestToken(drained);
    const ws = await wsTrader(drained, wsWho, `&world=${world}`);
    const tradeId = await openTrade(sdk, ws);
    const coinsBefore = countOf(ws.sync(), "coins");
    await offer(ws, tradeId, slotOf(ws.sync(), "coins"), 10);
    // Saved (SAVE_INTERVAL 1) with the trade open: the totals the move must keep.
    const before = await cluster.ledger();

    // Refusals change nothing.
    const forbidden = await rest(stay, "POST", "/api/admin/drain", nobody.token, { processId: ids.get(drained) });
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.body.error.code, "FORBIDDEN");
    const unknown = await rest(stay, "POST", "/api/admin/drain", admin.token, { processId: "no-such-process" });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, "UNKNOWN_PROCESS");
    const bad = await rest(stay, "POST", "/api/admin/drain", admin.token, { processId: 12, extra: true });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, "INVALID_PAYLOAD");
    const listed = await rest(stay, "GET", "/api/admin/drain", admin.token);
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.processes.map((p: any) => [p.processId, p.draining]).sort(),
      [...ids.values()].sort().map((id) => [id, false]),
    );
    assert.equal(listed.body.drain, null);

    // The drain, asked through another process.
    const sdkLeft = sdk.closed;
    const asked = await rest(stay, "POST", "/api/admin/drain", admin.token, { processId: ids.get(drained), reason: "upgrade to the next version" });
    assert.equal(asked.status, 202, JSON.stringify(asked.body));
    assert.equal(asked.body.processId, ids.get(drained));

    // Both players: the trade called off (nothing moved), then told to move, then closed with 4103.
    const [sdkCancel, wsCancel] = await Promise.all([
      sdk.next("tradeCancelled", (d) => d.tradeId === tradeId),
      ws.next("tradeCancelled", (d) => d.tradeId === tradeId),
    ]);
    assert.equal(sdkCancel.reason, "server_shutdown");
    assert.equal(wsCancel.reason, "server_shutdown");
    const [sdkMoving, wsMoving] = await Promise.all([sdk.next("world:moving"), ws.next("world:moving")]);
    for (const m of [sdkMoving, wsMoving]) {
      assert.equal(m.world, world);
      assert.match(m.resumeToken, /^[A-Za-z0-9_-]{43}$/);
      assert.deepEqual([...m.hosts].sort(), [stay, other].map((p) => `127.0.0.1:${p.port}`).sort(), "where the players may knock: the processes that stay");
      assert.ok(m.hosts.includes(m.next), `next (${m.next}) is one of them`);
    }
    const meantFor = [stay, other].find((p) => `127.0.0.1:${p.port}` === sdkMoving.next)!;
    assert.equal(await sdkLeft, 4103);
    assert.equal(await ws.closed, 4103);
    assert.equal((await drained.exited).code, 0, "the drained process exits 0 once its world moved");

    // The /ws player resumes through a process that stays (its token works on any), following a redirect if need be.
    const back = await resumeWs(other, wsMoving.resumeToken);
    assert.equal(back.auth.resumed, true);
    assert.equal(back.auth.playerId, ws.id);
    const wsSync = (await back.ws.next("player:sync")).data;
    assert.equal(countOf(wsSync, "coins"), coinsBefore, "the coins offered stayed with their owner");
    await back.ws.next("world:update");
    // The token worked once.
    const again = await wsConnect(other.port);
    sockets.push(again);
    again.send("resume", { resumeToken: wsMoving.resumeToken }, "r2");
    assert.equal((await again.next("error", (f) => f.id === "r2")).data.code, "RESUME_FAILED");
    // Closed before its guest window runs out (in anonymous mode a socket that resumed nobody is made a guest).
    again.ws.terminate();

    // The SDK player joins again with its own token, the same character, in the same world.
    const sdkBack = await rejoinSdk(stay, sdkWho, world, sdk.id);
    assert.equal(sdkBack.id, sdk.id);
    assert.equal(sdkBack.room.roomId, `world-${world}`);

    // The world runs once, on a process that stayed; the items are what they were.
    const worlds: ListedWorld[] = await cluster.worlds(stay);
    const moved = worlds.find((w) => w.id === world)!;
    assert.equal(moved.status, "online");
    assert.equal(moved.processId, ids.get(meantFor), `world ${world} runs where world:moving's next said`);

    // The next step of a rolling upgrade: a new process starts, and the operator drains the world's
    // new host with `npm run admin -- drain`; the /ws player moves again, with the new token.
    const fresh = await cluster.start();
    const host = procs.find((p) => ids.get(p) === moved.processId)!;
    const listedByCli = await adminCli(["processes"]);
    assert.equal(listedByCli.code, 0, listedByCli.output);
    assert.match(listedByCli.output, new RegExp(`${moved.processId}  worlds [0-9,]*${world}`));
    assert.equal((await adminCli(["drain", "no-such-process"])).code, 1);
    const [cli, movingAgain] = await Promise.all([adminCli(["drain", moved.processId!]), back.ws.next("world:moving", () => true, { timeoutMs: 60_000 })]);
    assert.equal(cli.code, 0, cli.output);
    assert.match(cli.output, /drained and stopped/);
    assert.equal((await host.exited).code, 0);
    const stayed = [stay, other, fresh].find((p) => p !== host)!;
    const backAgain = await resumeWs(stayed, movingAgain.data.resumeToken);
    assert.equal(backAgain.auth.playerId, ws.id);
    assert.equal(countOf((await backAgain.ws.next("player:sync")).data, "coins"), coinsBefore);
    backAgain.ws.close();
    await backAgain.ws.closed;
    await sdkBack.leave().catch(() => {});
    const after = await cluster.ledger();
    assert.deepEqual(plain(after.total), plain(before.total), "item totals before the drain and after the move");
  });
});
