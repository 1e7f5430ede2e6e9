import assert from "node:assert/strict";
import { LocalPresence } from "@colyseus/core";
import { characterClaims, lockKey } from "../../rooms/characterLocks.js";
import { PresenceClaims } from "../../rooms/cluster/presenceClaims.js";
import { worldClaims, worldHostKey } from "../../rooms/cluster/worldHosting.js";
import { agentLeaseKey, AgentLeases } from "../../src/agents/leases.js";

/**
 * The one presence claim (rooms/cluster/presenceClaims.ts) behind the character locks, the world claims
 * and the agent leases, on Colyseus's in-process presence (Redis answers the same calls; the
 * cluster suites run it there).
 */
describe("presence claims", function () {
  const key = (id: string) => `thing:${id}:claim`;

  it("one holder at a time, even when many claim at once; the holder's claim holds", async () => {
    const presence = new LocalPresence();
    const claims = new PresenceClaims(presence, key, 15);
    const won = await Promise.all(Array.from({ length: 8 }, (_, i) => claims.claim("t1", `p${i}`)));
    assert.equal(won.filter(Boolean).length, 1);
    const holder = `p${won.indexOf(true)}`;
    assert.equal(await claims.holderOf("t1"), holder);
    assert.equal(await claims.claim("t1", holder), true, "the holder holds it still");
    assert.equal(await claims.claim("t1", "someone else"), false);
    assert.equal(await presence.hget(key("t1"), "holder"), holder, "under the caller's key");
  });

  it("is released only by its holder; then anyone may claim it", async () => {
    const presence = new LocalPresence();
    const claims = new PresenceClaims(presence, key, 15);
    assert.equal(await claims.claim("t1", "a"), true);
    await claims.release("t1", "b");
    assert.equal(await claims.holderOf("t1"), "a", "not b's to release");
    await claims.release("t1", "a");
    assert.equal(await claims.holderOf("t1"), undefined);
    assert.equal(await claims.claim("t1", "b"), true);
  });

  it("expires when its holder stops refreshing it, and not while it refreshes", async () => {
    const presence = new LocalPresence();
    const claims = new PresenceClaims(presence, key, 1);
    assert.equal(await claims.claim("kept", "a"), true);
    assert.equal(await claims.claim("dropped", "a"), true);
    // One refreshed, the other not: polled until the other has expired.
    const started = Date.now();
    while ((await claims.holderOf("dropped")) !== undefined) {
      await claims.refresh(["kept"]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.ok(Date.now() - started < 5_000, "the dropped claim expires");
    }
    await claims.refresh(["kept"]);
    assert.equal(await claims.holderOf("kept"), "a");
    assert.equal(await claims.claim("dropped", "b"), true);
  });

  it("a refresh racing a release leaves a key without a counter, which is free", async () => {
    const presence = new LocalPresence();
    const claims = new PresenceClaims(presence, key, 15);
    assert.equal(await claims.claim("t1", "a"), true);
    await claims.release("t1", "a");
    await claims.refresh(["t1"]);
    assert.equal(await presence.exists(key("t1")), true);
    assert.equal(await claims.claim("t1", "b"), true);
  });

  it("the character locks, world claims and agent leases are such claims, under their own keys", async () => {
    const presence = new LocalPresence();
    assert.equal(await characterClaims(presence).claim("c1", "room-a"), true);
    assert.equal(await presence.hget(lockKey("c1"), "holder"), "room-a");
    assert.equal(await worldClaims(presence).claim(2, "process-a"), true);
    assert.equal(await presence.hget(worldHostKey(2), "holder"), "process-a");
    const leases = new AgentLeases(presence, () => "process-b");
    assert.equal(await leases.claim("agent-1"), true);
    assert.equal(await presence.hget(agentLeaseKey("agent-1"), "holder"), "process-b");
    assert.deepEqual([lockKey("c1"), worldHostKey(2), agentLeaseKey("agent-1")], ["character:c1:lock", "world:2:host", "agent:agent-1:lease"]);
    await leases.free("agent-1", "process-a");
    assert.equal(await leases.holder("agent-1"), "process-b", "freed only by the holder named");
    await leases.free("agent-1", "process-b");
    assert.equal(await leases.holder("agent-1"), undefined);
  });
});
