import assert from "node:assert/strict";
import { LocalPresence } from "@colyseus/core";
import { MoveTickets } from "../../rooms/cluster/moveTickets.js";

/** The resume tokens of a moved world's sessions (rooms/cluster/moveTickets.ts), on one presence as a cluster shares it. */
describe("move tickets: a moved session's resume token", () => {
  const ticket = { accountId: "a1", characterId: "c1", world: 301, claims: { role: "player" as const, guest: true } };

  it("is 256 random bits read back by any holder of the presence; taken by one at a time, good again when released, gone once forgotten", async () => {
    const presence = new LocalPresence();
    const [here, there] = [new MoveTickets(presence), new MoveTickets(presence)];
    const token = await here.issue(ticket);
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(await here.issue(ticket), token, "each issue is a new token");
    assert.deepEqual(await there.peek(token), ticket);

    assert.equal(await there.use(token), true);
    assert.equal(await here.use(token), false, "a second socket racing with the same token loses");
    assert.equal(await here.peek(token), undefined, "a taken token reads as none");
    await there.release(token); // redirected, or the world not running yet
    assert.deepEqual(await here.peek(token), ticket, "good again");
    assert.equal(await here.use(token), true);
    await here.forget(token); // joined
    await here.release(token);
    assert.equal(await there.peek(token), undefined, "a forgotten token works no more");
  });

  it("reads what is not a token, or a token never issued, as none", async () => {
    const tickets = new MoveTickets(new LocalPresence());
    for (const bad of ["", "short", "x".repeat(44), "!".repeat(43), "a".repeat(43)]) assert.equal(await tickets.peek(bad), undefined, bad);
  });
});
