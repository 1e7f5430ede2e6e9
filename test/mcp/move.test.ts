import assert from "node:assert/strict";
import { matchMaker } from "@colyseus/core";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { signRelayMark } from "../../src/auth/tokens.js";
import { RESOURCES } from "../../src/mcp/resources.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken } from "../helpers/worldClient.js";
import { theWorld } from "../helpers/worldRoom.js";
import { INITIALIZE, mcpConnect, mcpPost, type McpTestClient, type ToolAnswer } from "./helpers.js";

/**
 * An MCP session whose world moves (a drain, docs/MCP.md "In a cluster"): the world room lets
 * everyone go as a drain does (`world:moving`, close 4103) and the world runs again (here on the
 * same server, standing in for the process that takes it). The session is not over: its next
 * request takes it up where the world runs, with the same Mcp-Session-Id. test/cluster/mcpFollow
 * does the same across real processes.
 */
describe("/mcp: a session whose world moves follows it", function () {
  this.timeout(90_000);
  let server: TestServer;
  const open: McpTestClient[] = [];

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await Promise.allSettled(open.map((c) => c.close()));
    await server?.close();
  });

  async function connect() {
    const c = await mcpConnect(server, (await guestToken(server)).token);
    open.push(c);
    return c;
  }

  /** The world moves out of its room as a drain moves it, and runs again in a new room. */
  async function moveTheWorld(): Promise<number> {
    const room = await theWorld();
    const moved = await room.moveOut(["127.0.0.1:1"]);
    await room.disconnect();
    await matchMaker.handleCreateRoom("world", { worldId: room.spec.id }, undefined, room.roomId);
    return moved;
  }

  const kinds = (a: ToolAnswer): string[] => ((a.body?.events ?? []) as Array<{ kind: string }>).map((e) => e.kind);

  it("the call under way answers WORLD_MOVED; the next goes on in the same session: where the player stood, with the events not told yet and the subscription", async () => {
    const a = await connect();
    const b = await connect();
    const me = (await a.call("observe")).body.you;
    const to = { x: me.x + 2, z: me.z };
    const walked = await a.call("move_to", to);
    assert.deepEqual(walked.body.position, to, walked.text);
    await a.client.subscribeResource({ uri: RESOURCES.quests });
    // Said before the move and not yet told to a: its next answer, after the move, has it.
    const said = await b.call("chat", { message: "see you on the other side", channel: "world" });
    assert.equal(said.isError, false, said.text);
    const id = a.transport.sessionId;

    // A long call is under way (its first progress came) when the world moves.
    let inFlight!: () => void;
    const started = new Promise<void>((r) => (inFlight = r));
    const waiting = a.call("wait", { for: ["npc:killed"], maxTicks: 60 }, { onprogress: () => inFlight() });
    await started;
    assert.equal(await moveTheWorld(), 2);
    const cut = await waiting;
    assert.equal(cut.isError, true);
    assert.match(cut.text, /^WORLD_MOVED: .*call again/);

    const back = await a.call("observe");
    assert.equal(back.isError, false, back.text);
    assert.equal(a.transport.sessionId, id, "the same session");
    assert.equal(back.body.you.id, me.id, "the same character");
    assert.deepEqual({ x: back.body.you.x, z: back.body.you.z }, to, "where the walk acknowledged before the move left it");
    const told = kinds(back);
    assert.ok(told.includes("chat:message"), JSON.stringify(back.body.events));
    assert.ok(told.indexOf("chat:message") < told.indexOf("session:moved"), "the events carried come first, then the move");
    const heard = (back.body.events as Array<{ kind: string; message?: string }>).find((e) => e.kind === "chat:message")!;
    assert.equal(heard.message, "see you on the other side");
    assert.ok(!told.includes("world:moving"), "the move's own message (its resume token) is not passed on");
    assert.deepEqual(kinds(await a.call("observe")), [], "each event in one answer");

    // b did nothing but call again: it followed too.
    const bBack = await b.call("observe");
    assert.equal(bBack.isError, false, bBack.text);
    assert.ok(kinds(bBack).includes("session:moved"));

    // The journal subscription was taken along: a change of the quests on the new room is told.
    let updated = false;
    a.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      if (n.params.uri === RESOURCES.quests) updated = true;
    });
    const room = await theWorld();
    const p = room.world.players.get(me.id)!;
    // The client's standing stream comes back by itself (the SDK reconnects it); until then a notice has nowhere to go.
    for (let stage = 1; stage <= 40 && !updated; stage++) {
      p.quests.set("the_wardens_letter", { questId: "the_wardens_letter", stage, count: 0, completions: 0 });
      room.world.touchPlayer(p);
      await a.call("wait", { ticks: 1 });
    }
    assert.ok(updated, "the quest journal, subscribed before the move, is told updated after it");
  });

  it("a goal set before the move is played after it; a session ended while its world moved is gone; another account may not take it up", async () => {
    const a = await connect();
    const status = await a.call("agent_status");
    const chop = status.body.availableGoals.find((g: { id: string; available: boolean }) => g.id === "woodcutting:tree_normal");
    assert.ok(chop?.available);
    assert.equal((await a.call("set_goal", { goalId: chop.id })).isError, false);
    // A client without a standing stream (the SDK's client reopens its stream by itself, which takes its session up).
    const owner = await guestToken(server);
    const opened = await mcpPost(server, owner.token, INITIALIZE);
    assert.equal(opened.status, 200, opened.text);
    const cId = opened.headers.get("mcp-session-id")!;
    const cChar = (await server.ctx.db.prisma.character.findFirstOrThrow({ where: { accountId: owner.accountId } })).id;
    const stranger = await guestToken(server);
    await moveTheWorld();

    // Another account's token with the moved session's id: refused, and the session stays free for its owner.
    const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    const foreign = await mcpPost(server, stranger.token, list, { "mcp-session-id": cId });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.body.error.code, "FORBIDDEN");

    const after = await a.call("agent_status");
    assert.equal(after.body.goal?.type, "woodcutting", JSON.stringify(after.body.goal));

    // The owner ends it without calling anything after the move: nothing is taken up, and the id is unknown after.
    const ended = await fetch(`${server.url}/mcp`, { method: "DELETE", headers: { authorization: `Bearer ${owner.token}`, "mcp-session-id": cId } });
    assert.equal(ended.status, 200);
    assert.equal((await theWorld()).sessions.has(cChar), false, "its player did not join the world again");
    const gone = await mcpPost(server, owner.token, list, { "mcp-session-id": cId });
    assert.equal(gone.status, 404);
  });

  it("a relay mark is the cluster's own: one a client makes up passes for nothing, one for another process is refused CLUSTER_MISADDRESSED", async () => {
    const who = await guestToken(server);
    const a = await mcpConnect(server, who.token);
    open.push(a);
    const id = a.transport.sessionId!;
    const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    const madeUp = await mcpPost(server, who.token, list, { "mcp-session-id": id, "x-arena-relay": "made.up.mark" });
    assert.equal(madeUp.status, 200, madeUp.text);
    const foreign = signRelayMark({ to: matchMaker.processId, address: "203.0.113.9" }, "another-cluster-secret-".padEnd(48, "z"));
    assert.equal((await mcpPost(server, who.token, list, { "mcp-session-id": id, "x-arena-relay": foreign })).status, 200, "another cluster's mark is none");
    const elsewhere = signRelayMark({ to: "another-process", address: "203.0.113.9" }, server.config.jwtSecret);
    const misrouted = await mcpPost(server, who.token, list, { "mcp-session-id": id, "x-arena-relay": elsewhere });
    assert.equal(misrouted.status, 502);
    assert.equal(misrouted.body.error.code, "CLUSTER_MISADDRESSED");
    assert.match(misrouted.body.error.message, /another-process.*CLUSTER_ADDRESS/);
    // The mark is no token: as a Bearer token it is refused.
    assert.equal((await mcpPost(server, elsewhere, list, { "mcp-session-id": id })).status, 401);
  });
});
