import assert from "node:assert/strict";
import { createWorld } from "../../rooms/worldSetup.js";
import { duel, duelsOf } from "../../src/features/duel/index.js";
import type { Negotiations, NegotiationSession, NegotiationSide } from "../../src/game/world/negotiation.js";
import type { World } from "../../src/game/world/World.js";
import { code } from "../game/fixtures.js";
import { addStarter } from "../helpers/handPlaced.js";
import { defaultGameData } from "../helpers/server.js";

type AnyBook = Negotiations<NegotiationSession, NegotiationSide, unknown, string>;

/**
 * A trade and a staked duel are one negotiation (src/game/world/negotiation.ts): the same scenario,
 * run on either book, ends the same way: only the words, the codes' nouns and the screens differ.
 */
for (const kind of ["trade", "duel"] as const) {
  describe(`the negotiation, as a ${kind}`, () => {
    let world: World;
    let book: AnyBook;
    let ids = 0;
    let ignores = new Set<string>();
    const noun = kind.toUpperCase();
    const screens = kind === "trade" ? ["offer", "confirm"] : ["rules", "stakes", "confirm"];
    const add = (name: string, tile = world.spawnTile) => addStarter(world, name, tile);
    const kinds = (events: unknown[]) => (events as Array<{ kind: string; reason?: string }>).map((e) => (e.kind === "cancelled" ? `cancelled:${e.reason}` : e.kind));

    beforeEach(async () => {
      ignores = new Set();
      world = createWorld(await defaultGameData(), { newId: () => `${++ids}`, ignoring: (playerId, fromId) => ignores.has(`${playerId}>${fromId}`), features: [duel] });
      book = (kind === "trade" ? world.trades : duelsOf(world)) as unknown as AnyBook;
      add("ann");
      add("bob");
      add("cat");
    });

    it("asked back, the request is answered: the first screen opens for both", () => {
      const s = book.ask("c_ann", "c_bob", 0);
      assert.equal(book.ask("c_bob", "c_ann", 1).id, s.id);
      assert.equal(s.screen, screens[0]);
      assert.equal(book.sessionOf("c_ann")?.id, s.id);
      assert.equal(book.sessionOf("c_bob")?.id, s.id);
    });

    it("each screen needs both acceptances, in turn, before the next opens", () => {
      const s = book.ask("c_ann", "c_bob", 0);
      book.respond("c_bob", s.id, true, 0);
      for (const screen of screens.slice(0, -1)) {
        assert.equal(s.screen, screen);
        book.accept("c_ann", s.id, 1);
        assert.equal(s.screen, screen, "one acceptance is not enough");
        assert.throws(() => book.accept("c_ann", s.id, 1), code("ALREADY_ACCEPTED"));
        book.accept("c_bob", s.id, 1);
      }
      assert.equal(s.screen, "confirm");
    });

    it("refusals name the kind: oneself, unknown, not yours, already in one", () => {
      assert.throws(() => book.ask("c_ann", "c_ann", 0), code(`SELF_${noun}`));
      assert.throws(() => book.respond("c_ann", "nope", true, 0), code(`UNKNOWN_${noun}`));
      const s = book.ask("c_ann", "c_bob", 0);
      assert.throws(() => book.respond("c_cat", s.id, true, 0), code(`NOT_YOUR_${noun}`));
      assert.throws(() => book.ask("c_ann", "c_cat", 0), code(`ALREADY_IN_${noun}`));
      assert.throws(() => book.respond("c_ann", s.id, true, 0), code("INVALID_STATE"), "only the one asked answers");
    });

    it("declined, withdrawn or timed out, a request ends for both and frees them", () => {
      const declined = book.ask("c_ann", "c_bob", 0);
      book.respond("c_bob", declined.id, false, 0);
      const withdrawn = book.ask("c_ann", "c_cat", 0);
      book.cancelBy("c_ann", withdrawn.id);
      const unanswered = book.ask("c_bob", "c_cat", 0);
      book.expire(book.limits.requestTimeoutMs);
      assert.deepEqual(kinds(book.drain()), ["requested", "cancelled:declined", "requested", "cancelled:cancelled", "requested", "cancelled:timeout"]);
      assert.equal(book.sessions.size, 0);
      for (const id of ["c_ann", "c_bob", "c_cat"]) assert.equal(book.sessionOf(id), undefined);
      assert.ok(!book.sessions.has(unanswered.id));
    });

    it("a request to a player who ignores the asker is hidden from them", () => {
      ignores.add("c_bob>c_ann");
      const s = book.ask("c_ann", "c_bob", 0);
      assert.equal(s.hiddenFromTarget, true);
      assert.equal(book.ask("c_cat", "c_bob", 0).hiddenFromTarget, undefined);
    });

    it("a leave or a death on a screen cancels it and releases the locks", () => {
      const s = book.ask("c_ann", "c_bob", 0);
      book.respond("c_bob", s.id, true, 0);
      world.players.get("c_ann")!.lockedSlots = new Set([0]);
      book.drain();
      book.playerGone("c_bob", "player_died");
      assert.deepEqual(kinds(book.drain()), ["cancelled:player_died"]);
      assert.equal(world.players.get("c_ann")!.lockedSlots.size, 0);
      assert.equal(book.sessionOf("c_ann"), undefined);
    });

    it("one kind at a time: a player in the other kind is busy", () => {
      const other = (kind === "trade" ? duelsOf(world) : world.trades) as unknown as AnyBook;
      const s = other.ask("c_ann", "c_bob", 0);
      other.respond("c_bob", s.id, true, 0);
      assert.throws(() => book.ask("c_cat", "c_ann", 0), code("PLAYER_UNAVAILABLE"));
      assert.throws(() => book.ask("c_ann", "c_cat", 0), code(kind === "trade" ? "IN_DUEL" : "ALREADY_IN_TRADE"));
    });
  });
}
