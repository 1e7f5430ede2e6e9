import assert from "node:assert/strict";
import { clusterSuite } from "../helpers/cluster.js";
import { startFront } from "../helpers/front.js";
import { plain } from "../helpers/itemLedger.js";
import { rest } from "../helpers/rest.js";
import type { ServerProcess } from "../helpers/serverProcess.js";
import { guestToken } from "../helpers/worldClient.js";
import { mcpConnect, mcpPost, type McpTestClient, type ToolAnswer } from "../mcp/helpers.js";

/**
 * MCP sessions on a cluster of three real processes (docs/MCP.md "In a cluster"): any process
 * answers any session's requests (it passes them to the process holding the session), and when a
 * drain moves the session's world, or its process is killed, the session follows the world with
 * the same Mcp-Session-Id: the MCP client keeps calling the address it knows and does nothing else.
 */
describe("MCP sessions in a cluster: any process answers them, and they follow their world", function () {
  this.timeout(240_000);
  const cluster = clusterSuite({ worlds: "601,602,603", secret: "mcp-follow-secret-".padEnd(48, "m") });
  const clients: McpTestClient[] = [];
  after(async () => {
    await Promise.allSettled(clients.map((c) => c.client.close()));
  });

  /** A guest with a character, its MCP session opened through `via` in `world`. */
  async function player(via: Pick<ServerProcess, "url">, name: string, world: number) {
    const who = await guestToken(via);
    assert.equal((await rest(via, "POST", "/api/character", who.token, { name })).status, 201);
    const c = await mcpConnect(via, who.token, `?world=${world}`);
    clients.push(c);
    return { who, c };
  }

  /**
   * Call a tool until the cluster answers (a call made while the process the client talks to is
   * down, or while the world is on its way, fails as any HTTP call would); the answer, and the
   * failures before it.
   */
  async function callThrough(c: McpTestClient, name: string, args: Record<string, unknown> = {}): Promise<{ answer: ToolAnswer; failures: string[] }> {
    const failures: string[] = [];
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        return { answer: await c.call(name, args), failures };
      } catch (err) {
        failures.push((err as Error).message);
        assert.ok(Date.now() < deadline, `no answer to ${name} within 60 s: ${failures.slice(-3).join(" | ")}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  const eventTypes = (a: ToolAnswer): string[] => ((a.body?.events ?? []) as Array<{ kind: string }>).map((e) => e.kind);

  it("passes requests to the session's process, and follows its world when a drain moves it, when its host is stopped and when its host is killed", async () => {
    const first = await cluster.start();
    await cluster.until(first, (ws) => ws.length === 3 && ws.every((w) => w.status === "online"), "every world online");
    const procs = [first, ...(await Promise.all([cluster.start(), cluster.start()]))];
    const { hostOf, ids } = await cluster.oneWorldEach(procs);
    const world = 601;
    const drained = hostOf.get(world)!;
    const [middle, other] = procs.filter((p) => p !== drained) as [ServerProcess, ServerProcess];

    // One session opened on the world's own process; one through a process that does not run it; one through a
    // front balancing over every live process (as nginx in docs/DEPLOYMENT.md).
    const live = [...procs];
    const balancer = await startFront(() => live.map((p) => p.port));
    after(() => balancer.close());
    const near = await player(drained, "Follower", world);
    const far = await player(middle, "Farcaller", world);
    const viaFront = await player({ url: balancer.url }, "Fronted", world);
    // And one in another world, opened through the process that will be drained: it passes this session's requests on.
    const passer = await player(drained, "Passer", 602);
    const frontSeen = (await viaFront.c.call("observe")).body;
    const frontId = viaFront.c.transport.sessionId!;
    const nearSeen = (await near.c.call("observe")).body;
    const farSeen = (await far.c.call("observe")).body;
    assert.ok(nearSeen.you && farSeen.you, "both players are in the world");
    // The other player comes into view with a tick's update.
    const seesFar = async () => ((await near.c.call("observe")).body.near.players as Array<{ id: string }>).some((p) => p.id === farSeen.you.id);
    for (let tick = 0; tick < 10 && !(await seesFar()); tick++) await near.c.call("wait", { ticks: 1 });
    assert.ok(await seesFar(), "the session opened through another process plays in the same world room");

    // Refusals: another account's token with a session id is refused by its record, anywhere; an unknown id is 404.
    const farId = far.c.transport.sessionId!;
    const nosy = await guestToken(other);
    const list = { jsonrpc: "2.0", id: 9, method: "tools/list" };
    const foreign = await mcpPost(other, nosy.token, list, { "mcp-session-id": farId });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.body.error.code, "FORBIDDEN");
    const unknown = await mcpPost(other, nosy.token, list, { "mcp-session-id": "00000000-0000-4000-8000-000000000000" });
    assert.equal(unknown.status, 404);
    // A relay mark a client makes up is no relay: the request is passed on (and answered) as any other.
    const forged = await mcpPost(
      other,
      far.who.token,
      { jsonrpc: "2.0", id: 10, method: "tools/list" },
      { "mcp-session-id": farId, "x-arena-relay": "made.up.mark" },
    );
    assert.equal(forged.status, 200, forged.text);

    // Acknowledged before the move: a walk.
    const to = { x: nearSeen.you.x + 2, z: nearSeen.you.z };
    const walked = await near.c.call("move_to", to);
    assert.equal(walked.isError, false, walked.text);
    assert.deepEqual(walked.body.position, to);
    const admin = await guestToken(middle);
    await cluster.sql(`UPDATE "users" SET "roles" = $2 WHERE "id" = $1`, [admin.accountId, ["admin"]]);
    await rest(middle, "POST", "/api/character", admin.token, { name: "Mover" });
    const before = await cluster.ledger();

    // An admin drains the world's process while a long call waits there.
    const waiting = near.c.call("wait", { for: ["chat:message"], maxTicks: 60 });
    // A call the drained process passes on is under way too (about 5 s).
    const passing = passer.c.call("wait", { ticks: 8 });
    const asked = await rest(middle, "POST", "/api/admin/drain", admin.token, { processId: ids.get(drained) });
    assert.equal(asked.status, 202, JSON.stringify(asked.body));
    const cut = await waiting;
    assert.equal(cut.isError, true);
    assert.match(cut.text, /^WORLD_MOVED: .*follows it/, "the call under way is told the world moved, and to call again");
    // While it stops, the drained process passes nothing more on: 503 while its worlds move out, then its
    // port is closed (a front, or the client calling again, reaches another process).
    const refused = await mcpPost(drained, far.who.token, list, { "mcp-session-id": farId }).catch((err: Error) => err);
    if (refused instanceof Error) assert.match(String((refused.cause as Error | undefined)?.message), /ECONNREFUSED/);
    else {
      assert.equal(refused.status, 503, refused.text);
      assert.equal(refused.body.error.code, "WORLD_UNAVAILABLE");
      assert.equal(refused.headers.get("retry-after"), "1");
    }
    // What it passed on before is answered before it exits.
    const passed = await passing;
    assert.equal(passed.isError, false, passed.text);
    assert.equal(passed.body.done, true);
    assert.equal((await drained.exited).code, 0);
    live.splice(live.indexOf(drained), 1);

    // The far session's client did nothing: its next call, through the same process, reaches it on the world's new host.
    const farBack = await callThrough(far.c, "observe");
    assert.deepEqual(farBack.failures, [], "a process that stays answers at once");
    assert.equal(farBack.answer.body.you.id, farSeen.you.id);
    assert.ok(eventTypes(farBack.answer).includes("session:moved"), JSON.stringify(farBack.answer.body.events));
    assert.equal(far.c.transport.sessionId, farId, "the same session");
    const frontBack = await callThrough(viaFront.c, "observe");
    assert.equal(frontBack.answer.body.you.id, frontSeen.you.id, "the session behind the front followed too");
    assert.ok(eventTypes(frontBack.answer).includes("session:moved"));

    // The drained process is started again at its address, as a supervisor does; the near client calls it as before.
    const restarted = await cluster.start({}, drained.port);
    live.push(restarted);
    ids.set(restarted, (await cluster.status(restarted)).processId);
    const nearBack = await callThrough(near.c, "observe");
    assert.equal(nearBack.answer.isError, false, nearBack.answer.text);
    assert.equal(nearBack.answer.body.you.id, nearSeen.you.id, "the same character");
    assert.deepEqual({ x: nearBack.answer.body.you.x, z: nearBack.answer.body.you.z }, to, "where the walk acknowledged before the move left it");
    assert.ok(eventTypes(nearBack.answer).includes("session:moved"));
    const host = (await cluster.worlds(restarted)).find((w) => w.id === world)!;
    assert.equal(host.status, "online");
    assert.notEqual(host.processId, ids.get(drained));
    assert.deepEqual(plain((await cluster.ledger()).total), plain(before.total), "item totals before the drain and after the move");

    // The world's host is stopped (SIGTERM, no drain): the world runs again on another process, and the session follows it.
    const stopped = live.find((p) => ids.get(p) === host.processId)!;
    stopped.child.kill("SIGTERM");
    assert.equal((await stopped.exited).code, 0);
    live.splice(live.indexOf(stopped), 1);
    const afterStop = await callThrough(viaFront.c, "observe");
    assert.equal(afterStop.answer.isError, false, afterStop.answer.text);
    assert.equal(afterStop.answer.body.you.id, frontSeen.you.id);
    assert.deepEqual({ x: afterStop.answer.body.you.x, z: afterStop.answer.body.you.z }, { x: frontSeen.you.x, z: frontSeen.you.z });
    assert.ok(eventTypes(afterStop.answer).includes("session:moved"), JSON.stringify(afterStop.answer.body.events));
    assert.equal(viaFront.c.transport.sessionId, frontId);

    // Its next host is killed (SIGKILL): once the world runs on the last process, the session follows it there too.
    const next = (await cluster.worlds(restarted)).find((w) => w.id === world)!;
    assert.equal(next.status, "online");
    const killed = live.find((p) => ids.get(p) === next.processId)!;
    killed.child.kill("SIGKILL");
    await killed.exited;
    live.splice(live.indexOf(killed), 1);
    const afterKill = await callThrough(viaFront.c, "observe");
    assert.equal(afterKill.answer.isError, false, afterKill.answer.text);
    assert.equal(afterKill.answer.body.you.id, frontSeen.you.id);
    assert.ok(eventTypes(afterKill.answer).includes("session:moved"));
    assert.equal(live.length, 1, "one process left");

    // The client ends the session: it is gone everywhere.
    await viaFront.c.transport.terminateSession();
    const gone = await mcpPost(live[0]!, viaFront.who.token, list, { "mcp-session-id": frontId });
    assert.equal(gone.status, 404, gone.text);
  });
});
