import assert from "node:assert/strict";
import { matchMaker } from "@colyseus/core";
import { Client } from "@colyseus/sdk";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { lockKey } from "../../rooms/characterLocks.js";
import { seededRng } from "../../src/game/random.js";
import { addTo, plain, readLedger, type Bag } from "../helpers/itemLedger.js";
import { rest } from "../helpers/rest.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { countOf, slotOf } from "../helpers/tradeSteps.js";
import { sdkTrader, wsTrader, type Trader } from "../helpers/traders.js";
import { guestToken } from "../helpers/worldClient.js";
import { wsConnect } from "../helpers/wsClient.js";
import { place, theWorld } from "../helpers/worldRoom.js";

/**
 * One character is live in one room at a time, whatever way it joins: a second join anywhere takes
 * the session over (the first is saved, then closed with 4100) and nothing is duplicated.
 */

type Identity = { token: string; accountId: string };

/** Everything the given characters own, in the database. */
async function totalsOf(server: TestServer, ids: string[]): Promise<Bag> {
  const ledger = await readLedger(server.ctx.db);
  const total: Bag = new Map();
  for (const id of ids) for (const [itemId, n] of ledger.characters.get(id) ?? []) addTo(total, itemId, n);
  return total;
}

/** Wait until no session of these characters is left in the room and every save is written. */
async function settledWithout(room: WorldRoom, ids: string[]) {
  while (ids.some((id) => room.sessions.has(id))) await new Promise((r) => setImmediate(r));
  await room.settled();
}

/** A second world room made by the server itself (as a cluster will), in this process. */
async function secondWorld(): Promise<WorldRoom> {
  const listing = await matchMaker.createRoom("world", {});
  return matchMaker.getLocalRoomById(listing.roomId) as unknown as WorldRoom;
}

/** Answer every trade step as a willing partner: accept requests, offer one coin, accept both screens. */
function tradeWillingly(t: Trader): { stop(): void; completed: Set<string> } {
  const completed = new Set<string>();
  let seen = 0;
  const timer = setInterval(() => {
    const events = t.events(seen);
    seen += events.length;
    for (const { type, data } of events) {
      if (type === "tradeIncoming") t.send("tradeRequestRespond", { tradeId: data.tradeId, accept: true });
      else if (type === "tradeStarted") {
        const coins = slotOf(t.sync(), "coins");
        if (coins !== undefined) t.send("tradeAddItem", { tradeId: data.tradeId, inventorySlot: coins, quantity: 1 });
      } else if (type === "tradeUpdated" && !data.myOffer.accepted && data.myOffer.items.length > 0 && data.theirOffer.items.length > 0) t.send("tradeAccept", { tradeId: data.tradeId });
      else if (type === "tradeConfirmScreen") t.send("tradeAccept", { tradeId: data.tradeId });
      else if (type === "tradeCompleted") completed.add(data.tradeId);
    }
  }, 10);
  return { stop: () => clearInterval(timer), completed };
}

describe("one character, one world", function () {
  this.timeout(120_000);
  let server: TestServer;
  const open: Trader[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((t) => t.close().catch(() => {})));
    await server?.close();
  });

  it("the reported dupe: /ws in the world, a stranger's create refused, the SDK's joinById takes the session over; trading the coins away and eating leave the totals unchanged", async () => {
    server = await startTestServer();
    const world = await theWorld();
    const me = await guestToken(server);
    const partner = await wsTrader(server);
    open.push(partner);
    const first = await wsTrader(server, me);
    open.push(first);
    await world.saver.saveDirty(world.world);
    await world.settled();
    const before = await totalsOf(server, [first.id, partner.id]);

    const create = await fetch(`${server.url}/matchmake/create/world`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    assert.equal(create.status, 403);
    assert.equal((await matchMaker.query({ name: "world" })).length, 1);

    // The same character through the SDK, by the world's id: the /ws session is replaced.
    const second = await sdkTrader(server, me, { roomId: world.roomId, options: { characterId: first.id } });
    open.push(second);
    await first.next("session:replaced");
    assert.equal(second.id, first.id);

    // Trade the 25 coins away in the new session, and try to eat in the old one.
    place(world, second.id, world.world.spawnTile);
    place(world, partner.id, world.world.spawnTile);
    const m = second.mark();
    second.send("tradeRequest", { targetPlayerId: partner.id });
    const incoming = await partner.next("tradeIncoming", (d) => d.fromPlayerId === second.id);
    partner.send("tradeRequestRespond", { tradeId: incoming.tradeId, accept: true });
    const { tradeId } = await second.next("tradeStarted", () => true, { since: m });
    second.send("tradeAddItem", { tradeId, inventorySlot: slotOf(second.sync(), "coins"), quantity: 25 });
    await second.next("tradeUpdated", (d) => d.myOffer.items.length === 1, { since: m });
    second.send("tradeAccept", { tradeId });
    await second.next("tradeUpdated", (d) => d.myOffer.accepted, { since: m });
    partner.send("tradeAccept", { tradeId });
    await second.next("tradeConfirmScreen", () => true, { since: m });
    second.send("tradeAccept", { tradeId });
    await second.next("tradeUpdated", (d) => d.myOffer.accepted, { since: m });
    partner.send("tradeAccept", { tradeId });
    await second.next("tradeCompleted", () => true, { since: m });
    first.send("inventory:use", { slot: slotOf(first.sync(), "shrimp"), action: "eat" });

    await Promise.all(open.splice(0).map((t) => t.close()));
    await settledWithout(world, [first.id, partner.id]);
    assert.deepEqual(plain(await totalsOf(server, [first.id, partner.id])), plain(before));
    const coins = await server.ctx.db.prisma.inventoryItem.findMany({ where: { itemId: "coins", characterId: { in: [first.id, partner.id] } } });
    assert.deepEqual(Object.fromEntries(coins.map((c) => [c.characterId, c.quantity])), { [partner.id]: 50 });
  });

  it("two worlds made by the server: joining the second takes the character over from the first, which saves it first", async () => {
    server = await startTestServer();
    const one = await theWorld();
    const two = await secondWorld();
    const me = await guestToken(server);
    const inOne = await wsTrader(server, me);
    open.push(inOne);
    const presence = one.presence;
    assert.equal(await presence.hget(lockKey(inOne.id), "holder"), one.roomId);

    // Eat in the first world: the second must see the pack as the first saved it.
    const m = inOne.mark();
    inOne.send("inventory:use", { slot: slotOf(inOne.sync(), "shrimp"), action: "eat" });
    await inOne.next("notice", (d) => d.code === "ATE", { since: m });

    const inTwo = await sdkTrader(server, me, { roomId: two.roomId, options: { characterId: inOne.id } });
    open.push(inTwo);
    await inOne.next("session:replaced");
    assert.equal(inTwo.id, inOne.id);
    assert.equal(countOf(inTwo.sync(), "shrimp"), 4);
    assert.equal(one.sessions.has(inOne.id), false);
    assert.equal(one.world.players.has(inOne.id), false);
    assert.equal(two.sessions.has(inOne.id), true);
    assert.equal(await presence.hget(lockKey(inOne.id), "holder"), two.roomId);

    // And back again, the other way round (SDK out, /ws in).
    const backInOne = await wsTrader(server, me);
    open.push(backInOne);
    assert.equal(backInOne.id, inOne.id);
    assert.equal(two.world.players.has(inOne.id), false);
    assert.equal(await presence.hget(lockKey(inOne.id), "holder"), one.roomId);

    // Leaving lets the character go.
    await backInOne.close();
    await settledWithout(one, [inOne.id]);
    assert.equal(await presence.exists(lockKey(inOne.id)), false);
  });

  it("every way into the world at once, while trading and eating: item totals unchanged", async () => {
    server = await startTestServer({ env: { ADMIN_CODE: "integrity-admin-code" } });
    const world = await theWorld();
    const rng = seededRng(1010);
    const me = await guestToken(server);
    const owner = await guestToken(server);
    const agent = await rest(server, "POST", "/api/agent/register", owner.token, { name: "Twin Agent" });
    assert.equal(agent.status, 201, JSON.stringify(agent.body));
    assert.equal((await rest(server, "POST", `/api/agent/${agent.body.agentId}/stop`, owner.token)).status, 200);
    const agentIdentity: Identity = { token: agent.body.token, accountId: owner.accountId };

    const partner = await wsTrader(server);
    open.push(partner);
    const partnerTrades = tradeWillingly(partner);
    // Create the character once, then everyone offline: the starting totals are in the database.
    const firstVisit = await wsTrader(server, me);
    const ids = [firstVisit.id, partner.id, agent.body.characterId as string];
    await firstVisit.close();
    await settledWithout(world, [firstVisit.id, agent.body.characterId]);
    await world.saver.saveDirty(world.world);
    await world.settled();
    const before = await totalsOf(server, ids);

    let ate = 0;
    let refusedCreates = 0;
    const sessions: Trader[] = [];
    const drivers: Array<{ stop(): void }> = [];
    const ways: Array<() => Promise<Trader | undefined>> = [
      () => sdkTrader(server, me),
      () => sdkTrader(server, me, { roomId: world.roomId, options: { characterId: firstVisit.id } }),
      () => wsTrader(server, me),
      () => sdkTrader(server, owner, { options: { characterId: agent.body.characterId } }),
      () => wsTrader(server, agentIdentity),
      async () => {
        const res = await fetch(`${server.url}/matchmake/create/world`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${me.token}` }, body: "{}" });
        if (res.status === 403) refusedCreates++;
        // Were a room made, the character would go into it, as an attacker's would.
        if (res.ok) return sdkTrader(server, me, { roomId: (await res.json()).roomId, options: { characterId: firstVisit.id } });
        return undefined;
      },
      async () => {
        // Reconnecting a replaced session with its token must not bring a second copy back.
        const token = sessions.find((s) => s.reconnectionToken)?.reconnectionToken;
        if (token) await new Client(server.url).reconnect(token).then((r) => r.leave()).catch(() => {});
        return undefined;
      },
    ];
    for (let round = 0; round < 24; round++) {
      // Each way at least once, then at random.
      const way = round < ways.length ? ways[round]! : ways[Math.floor(rng() * ways.length)]!;
      const session = await way().catch(() => undefined);
      if (session) {
        sessions.push(session);
        drivers.push(tradeWillingly(session));
        place(world, session.id, world.world.spawnTile);
        place(world, partner.id, world.world.spawnTile);
      }
      // Every session ever opened (replaced ones too) tries to trade and to eat.
      for (const s of sessions) {
        s.send("tradeRequest", { targetPlayerId: partner.id });
        const shrimp = slotOf(s.sync() ?? { inventory: [] }, "shrimp");
        if (shrimp !== undefined) s.send("inventory:use", { slot: shrimp, action: "eat" });
      }
      if (session) await session.next("tradeIncoming", () => false, { timeoutMs: 300 }).catch(() => {});
    }
    for (const d of drivers) d.stop();
    partnerTrades.stop();
    for (const s of sessions) ate += s.all("notice").filter((n) => n.code === "ATE").length;
    await Promise.all([...sessions, partner].map((s) => s.close().catch(() => {})));
    open.splice(0);
    await settledWithout(world, ids);
    await world.saver.saveDirty(world.world);
    await world.settled();

    // Never two live copies: at most one session per character at any time, and none now.
    assert.equal([...world.sessions.keys()].filter((id) => ids.includes(id)).length, 0);
    assert.ok(refusedCreates > 0, "a create was tried and refused");
    assert.ok(partnerTrades.completed.size > 0, "some trades completed between the take-overs");
    const after = await totalsOf(server, ids);
    const shrimpBefore = before.get("shrimp") ?? 0;
    const shrimpAfter = after.get("shrimp") ?? 0;
    assert.ok(shrimpAfter <= shrimpBefore - ate, `shrimp: ${shrimpBefore} before, ${ate} eaten, ${shrimpAfter} after`);
    before.delete("shrimp");
    after.delete("shrimp");
    assert.deepEqual(plain(after), plain(before));
    assert.equal((await matchMaker.query({ name: "world" })).length, 1);
  });
});
