import assert from "node:assert/strict";
import { clusterSuite, type ListedWorld } from "../helpers/cluster.js";
import { plain } from "../helpers/itemLedger.js";
import { rest } from "../helpers/rest.js";
import type { ServerProcess } from "../helpers/serverProcess.js";
import { bothAccept, countOf, offer, openTrade, slotOf } from "../helpers/tradeSteps.js";
import { sdkTrader, wsTrader, type Trader } from "../helpers/traders.js";
import { guestToken, joinWorld } from "../helpers/worldClient.js";
import { wsConnect, type WsPlayer } from "../helpers/wsClient.js";

/**
 * Three real server processes on one Redis and one PostgreSQL, offering three worlds: each world
 * runs on exactly one process, every process lists them all, and a player reaches any world
 * through any process (the SDK by its seat's public address, /ws by a redirect it follows).
 */
describe("a cluster of three processes and three worlds", function () {
  this.timeout(180_000);
  const cluster = clusterSuite({ worlds: "301,302:Trade world,303", secret: "cluster-test-secret-".padEnd(48, "c") });
  const sockets: WsPlayer[] = [];
  let procs: ServerProcess[] = [];
  /** The process running each world. */
  const hostOf = new Map<number, ServerProcess>();
  const allOnline = (ws: ListedWorld[]) => ws.length === 3 && ws.every((w) => w.status === "online");

  after(() => {
    for (const s of sockets) s.ws.terminate();
  });

  /** The agent the next test registers (driven by the process the SIGKILL test kills). */
  let agent: { agentId: string; characterId: string; owner: string } | undefined;

  it("runs each world exactly once, spread over the processes, and every process lists them", async () => {
    // One process first: it runs every world, then hands empty ones over as the others arrive.
    const first = await cluster.start();
    await cluster.until(first, allOnline, "every world online on the first process");
    assert.deepEqual((await cluster.status(first)).worlds, [301, 302, 303]);
    procs = [first, ...(await Promise.all([cluster.start(), cluster.start()]))];
    const spread = await cluster.oneWorldEach(procs);
    assert.deepEqual([...spread.hostOf.keys()].sort(), [301, 302, 303], "each world on exactly one process");
    for (const [id, p] of spread.hostOf) hostOf.set(id, p);
    const statuses = await Promise.all(procs.map((p) => cluster.status(p)));
    assert.equal(new Set(statuses.map((s) => s.processId)).size, 3, "three process ids");
    assert.ok(statuses.every((s) => s.cluster));

    for (const p of procs) {
      const worlds = await cluster.until(p, allOnline, "every world online");
      assert.deepEqual(
        worlds.map((w) => [w.id, w.name, w.capacity, w.roomId]),
        [
          [301, "World 301", 2000, "world-301"],
          [302, "Trade world", 2000, "world-302"],
          [303, "World 303", 2000, "world-303"],
        ],
      );
    }
  });

  it("an SDK player joins each world through a process that does not run it", async () => {
    for (const [id, host] of hostOf) {
      const via = procs.find((p) => p !== host)!;
      const player = await joinWorld({ url: via.url }, { world: id });
      try {
        assert.equal(player.room.roomId, `world-${id}`);
        assert.ok(player.sync().inventory.length > 0, "the player's state arrived");
        const listed = await cluster.until(via, (ws) => ws.find((w) => w.id === id)?.players === 1, `world ${id} counts its player`);
        assert.equal(listed.find((w) => w.id === id)!.players, 1);
      } finally {
        await player.leave();
      }
    }
  });

  it("a world that does not exist, or a bad world id, is refused clearly over the SDK's matchmaking", async () => {
    const { token } = await guestToken(procs[0]!);
    const post = (body: unknown) =>
      fetch(`${procs[0]!.url}/matchmake/join/world`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    const missing = await post({ world: 999 });
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as any).error.code, "WORLD_NOT_FOUND");
    for (const world of [-1, 1.5, "x", 10_000, { id: 301 }]) {
      const bad = await post({ world });
      assert.equal(bad.status, 400, `world ${JSON.stringify(world)}`);
      assert.equal(((await bad.json()) as any).error.code, "INVALID_WORLD");
    }
  });

  it("/ws on a process that does not run the world redirects to the one that does; REST on a third process sees the player there", async () => {
    const [id, host] = [...hostOf][1]!;
    const via = procs.find((p) => p !== host)!;
    const third = procs.find((p) => p !== host && p !== via)!;
    const { token } = await guestToken(via);
    const first = await wsConnect(via.port, `?token=${encodeURIComponent(token)}&world=${id}&updates=changes`);
    sockets.push(first);
    const redirect = await first.next("world:redirect");
    assert.equal(redirect.data.world, id);
    const url = new URL(redirect.data.url);
    assert.equal(url.port, String(host.port));
    assert.deepEqual([url.pathname, url.searchParams.get("world"), url.searchParams.get("updates")], ["/ws", String(id), "changes"]);
    assert.equal((await first.closed).code, 4010);
    assert.equal(
      first.frames.some((f) => f.type === "authenticated"),
      false,
      "nobody joined through the first process",
    );

    const there = await wsConnect(host.port, `${url.search}&token=${encodeURIComponent(token)}`);
    sockets.push(there);
    const auth = await there.next("authenticated");
    const playerId = auth.data.playerId as string;
    const sync = await there.next("player:sync");

    // The world summary and the character's position, asked of a process where neither runs.
    const summary = (await (await fetch(`${third.url}/api/v1/world?world=${id}`)).json()) as any;
    assert.equal(summary.world, id);
    assert.ok(
      summary.onlinePlayers.some((p: any) => p.id === playerId),
      "the third process lists the player",
    );
    const position = await fetch(`${third.url}/api/characters/${playerId}/position`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(position.status, 200);
    const body = (await position.json()) as any;
    assert.deepEqual([body.position?.x ?? body.x, body.position?.z ?? body.z], [sync.data.position.x, sync.data.position.z]);
    there.close();
    await there.closed;
  });

  it("chat and a trade inside one world whose players came in through different processes", async () => {
    const [id, host] = [...hostOf][0]!;
    const via = procs.find((p) => p !== host)!;
    const traders: Trader[] = [];
    try {
      // One through another process's matchmaking (the SDK follows its seat to the host), one over /ws at the host.
      const a = await sdkTrader(via, undefined, { options: { world: id } });
      traders.push(a);
      const b = await wsTrader(host, await guestToken(host), `&world=${id}`);
      traders.push(b);
      a.send("player:chat", { message: "hello from the sdk" });
      await b.next("chat:message", (d) => d.message === "hello from the sdk" && d.fromId === a.id);

      const coinsA = countOf(a.sync(), "coins");
      const coinsB = countOf(b.sync(), "coins");
      const tradeId = await openTrade(a, b);
      await offer(a, tradeId, slotOf(a.sync(), "coins"), 5);
      await bothAccept(a, b, tradeId, "tradeConfirmScreen");
      await bothAccept(a, b, tradeId, "tradeCompleted");
      await a.next("player:sync", (s) => countOf(s, "coins") === coinsA - 5);
      await b.next("player:sync", (s) => countOf(s, "coins") === coinsB + 5);
    } finally {
      await Promise.all(traders.map((t) => t.close()));
    }
  });

  it("a private message crosses worlds and processes; the recipient's ignore list holds there", async () => {
    const [[idA, hostA], [idB, hostB]] = [...hostOf];
    const ann = await wsTrader(hostA!, await guestToken(hostA!), `&world=${idA}`);
    const bob = await wsTrader(hostB!, await guestToken(hostB!), `&world=${idB}`);
    try {
      const bobName = bob.sync().name as string;
      ann.send("player:chat", { message: "across the cluster", channel: "private", to: bobName });
      const got = await bob.next("chat:message", (d) => d.message === "across the cluster");
      assert.deepEqual([got.channel, got.fromId, got.toId], ["private", ann.id, bob.id]);
      await ann.next("chat:message", (d) => d.message === "across the cluster" && d.toId === bob.id);
      // Bob ignores Ann through a third process: her next message is dropped in his world.
      const third = procs.find((p) => p !== hostA && p !== hostB)!;
      assert.equal((await rest(third, "POST", "/api/player/ignore", bob.token, { characterId: ann.id })).status, 201);
      const since = bob.mark();
      ann.send("player:chat", { message: "still there?", channel: "private", to: bobName });
      await ann.next("chat:message", (d) => d.message === "still there?");
      const carl = await wsTrader(hostB!, await guestToken(hostB!), `&world=${idB}`);
      carl.send("player:chat", { message: "marker", channel: "private", to: bobName });
      await bob.next("chat:message", (d) => d.message === "marker", { since });
      assert.deepEqual(
        bob.all("chat:message", since).map((d) => d.message),
        ["marker"],
      );
      await carl.close();
    } finally {
      await Promise.all([ann.close(), bob.close()]);
    }
  });

  it("the same account logging in on another process takes its character over: one copy, in the new world", async () => {
    const [[idA, hostA], [idB, hostB]] = [...hostOf];
    const { token } = await guestToken(hostA!);
    const a = await wsConnect(hostA!.port, `?token=${encodeURIComponent(token)}&world=${idA}`);
    sockets.push(a);
    const playerId = (await a.next("authenticated")).data.playerId;
    await a.next("player:sync");
    const b = await wsConnect(hostB!.port, `?token=${encodeURIComponent(token)}&world=${idB}`);
    sockets.push(b);
    assert.equal((await b.next("authenticated")).data.playerId, playerId);
    await a.next("session:replaced");
    assert.equal((await a.closed).code, 4100);
    const worlds = await cluster.until(
      hostA!,
      (ws) => ws.find((w) => w.id === idA)!.players === 0 && ws.find((w) => w.id === idB)!.players === 1,
      "the character in one world",
    );
    assert.deepEqual(
      worlds.map((w) => w.players),
      worlds.map((w) => (w.id === idB ? 1 : 0)),
    );
    b.close();
    await b.closed;
  });

  it("REST on one process steers an agent driven by another: its status, words, goal and pause reach the driver", async () => {
    const host = [...hostOf][2]![1];
    const other = procs.find((p) => p !== host)!;
    const { token } = await guestToken(host);
    const reg = await rest(host, "POST", "/api/agent/register", token, { name: "Steered One" });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    agent = { agentId: reg.body.agentId, characterId: reg.body.characterId, owner: token };
    const listed = await rest(other, "GET", "/api/agent", token);
    assert.deepEqual(
      listed.body.agents.map((a: any) => [a.agentId, a.runtime, a.running, a.online]),
      [[agent.agentId, "builtin", true, true]],
      "the other process reports the driver's state",
    );
    const told = await rest(other, "POST", `/api/agents/${agent.agentId}/message`, token, { content: "hello there" });
    assert.equal(told.status, 200, JSON.stringify(told.body));
    assert.equal(typeof told.body.reply, "string", "the driver on the first process answered in character");
    const options = await rest(other, "GET", `/api/agents/${agent.agentId}/goal`, token);
    const goal = options.body.availableGoals.find((g: any) => g.available && g.type !== "idle");
    assert.ok(goal, JSON.stringify(options.body.availableGoals));
    const set = await rest(other, "POST", `/api/agents/${agent.agentId}/goal`, token, { goalId: goal.id });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const seen = await rest(host, "GET", `/api/agents/${agent.agentId}/goal`, token);
    assert.deepEqual([seen.body.goal?.type, seen.body.goal?.target], [goal.type, goal.target], "the driver took the goal set elsewhere");
    // The driver's activity (written on its process, through Redis) is read on the other, watch token and all.
    const watch = await rest(other, "POST", `/api/agents/${agent.agentId}/watch`, token, {});
    assert.equal(watch.status, 201, JSON.stringify(watch.body));
    const until = Date.now() + 10_000;
    for (;;) {
      const feed = await rest(other, "GET", `/api/agents/${agent.agentId}/activity`, watch.body.token);
      assert.equal(feed.status, 200, JSON.stringify(feed.body));
      if (feed.body.activity.some((l: any) => l.kind === "goal" && l.text === `${goal.name}: its owner set it`)) break;
      assert.ok(Date.now() < until, `the goal line never reached the other process: ${JSON.stringify(feed.body.activity)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const paused = await rest(other, "POST", `/api/agents/${agent.agentId}/goal/stop`, token);
    assert.deepEqual([paused.status, paused.body.goalsPaused, paused.body.goal], [200, true, null]);
    assert.equal((await rest(host, "GET", `/api/agents/${agent.agentId}/goal`, token)).body.goalsPaused, true);
    assert.equal((await rest(other, "POST", `/api/agents/${agent.agentId}/goal/resume`, token)).body.goalsPaused, false);
  });

  it("SIGKILL of a process: its world runs again on another within 15 s, from the database; its player comes back; no item is made or lost", async () => {
    const [id, victim] = [...hostOf][2]!;
    const survivors = procs.filter((p) => p !== victim);
    const { token } = await guestToken(survivors[0]!);
    const ws = await wsConnect(victim.port, `?token=${encodeURIComponent(token)}&world=${id}`);
    sockets.push(ws);
    const playerId = (await ws.next("authenticated")).data.playerId as string;
    const sync = (await ws.next("player:sync")).data;
    const coinSlot = sync.inventory.find((s: any) => s.itemId === "coins").slot;
    ws.send("inventory:use", { slot: coinSlot, action: "drop", quantity: 7 });
    await ws.next("world:update", (f) => f.data.groundItems.some((g: any) => g.itemId === "coins" && g.quantity === 7));
    // Written (SAVE_INTERVAL 1): the seven coins on the ground, the rest in the pack.
    const deadline = Date.now() + 20_000;
    let before = await cluster.ledger();
    while (before.ground.get("coins") !== 7) {
      assert.ok(Date.now() < deadline, `the dropped coins were not saved: ${JSON.stringify(plain(before.ground))}`);
      await new Promise((r) => setTimeout(r, 200));
      before = await cluster.ledger();
    }

    const victimId = (await cluster.status(victim)).processId;
    const killedAt = Date.now();
    victim.child.kill("SIGKILL");
    assert.equal((await victim.exited).signal, "SIGKILL");
    assert.notEqual((await ws.closed).code, 1000);
    const elsewhere = (ws: ListedWorld[]) => ws.find((w) => w.id === id)?.status === "online" && ws.find((w) => w.id === id)?.processId !== victimId;
    const worlds = await cluster.until(survivors[0]!, elsewhere, `world ${id} back online on another process`, 15_000);
    const tookMs = Date.now() - killedAt;
    assert.ok(tookMs <= 15_000, `world ${id} ran again after ${tookMs} ms`);
    assert.ok(worlds.every((w) => w.status === "online"));
    const shares = await Promise.all(survivors.map(async (p) => (await cluster.status(p)).worlds));
    assert.deepEqual(shares.flat().sort(), [301, 302, 303], `each world on exactly one surviving process: ${JSON.stringify(shares)}`);

    // The player logs in again through the first survivor (following a redirect if need be).
    let back = await wsConnect(survivors[0]!.port, `?token=${encodeURIComponent(token)}&world=${id}`);
    sockets.push(back);
    const first = await back.next("*", (f) => f.type === "authenticated" || f.type === "world:redirect", { timeoutMs: 40_000 });
    if (first.type === "world:redirect") {
      const url = new URL(first.data.url);
      back = await wsConnect(Number(url.port), `${url.search}&token=${encodeURIComponent(token)}`);
      sockets.push(back);
      await back.next("authenticated", () => true, { timeoutMs: 40_000 });
    }
    const again = (await back.next("player:sync")).data;
    assert.equal(again.id, playerId);
    const pack = (inv: any[]) => inv.map((s) => `${s.slot}:${s.itemId}x${s.quantity}`).sort();
    assert.deepEqual(pack(again.inventory), pack(before.inventories.get(playerId)!), "the pack as the database held it");
    await back.next("world:update", (f) => f.data.groundItems.some((g: any) => g.itemId === "coins" && g.quantity === 7));
    const after = await cluster.ledger();
    assert.deepEqual(plain(after.total), plain(before.total), "item totals before the kill and after the recovery");

    // The agent the dead process drove is driven by a survivor within 30 s of the kill.
    const a = agent!;
    const agentDeadline = killedAt + 30_000;
    let listed: any;
    for (;;) {
      listed = (await rest(survivors[0]!, "GET", "/api/agent", a.owner)).body.agents[0];
      if (listed?.running && listed.online) break;
      assert.ok(Date.now() < agentDeadline, `the agent was not taken over within 30 s: ${JSON.stringify(listed)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const position = await rest(survivors[1]!, "GET", `/api/characters/${a.characterId}/position`, a.owner);
    assert.equal(position.body.online, true);
  });
});
