import type { Busy, RuledFights, World } from "../../game/world/World.js";
import { DuelBook } from "./duelBook.js";

/** Each world's duel book, made as the world is (the feature's `attach`). */
const books = new WeakMap<World, DuelBook>();

/** The staked duels between the players of a world that plays the duel feature. */
export function duelsOf(world: World): DuelBook {
  const book = books.get(world);
  if (!book) throw new Error("this world does not play staked duels (the duel feature is not among its features)");
  return book;
}

export function attachDuels(world: World): void {
  books.set(world, new DuelBook(world, () => `d_${world.newId()}`, undefined, world.ignoring));
}

/** A duel's fight as the engine asks about it: the book answers. */
export function duelFights(world: World): RuledFights {
  const book = duelsOf(world);
  return {
    engaged: (playerId) => book.inArena(playerId),
    opponentOf: (playerId) => book.opponentOf(playerId),
    assertAllowed: (playerId, act) => book.assertAllowed(playerId, act),
    assertMove: (playerId, to) => book.assertMove(playerId, to),
    assertRoomAfter: (playerId, inventory) => book.assertRoomAfter(playerId, inventory),
    rooted: (playerId) => book.duelOf(playerId)?.rules.noMovement === true,
    defeated: (playerId) => book.defeated(playerId),
  };
}

/** A player in a duel (its own challenge included) is kept out of trades. */
export function busyDuelling(world: World, playerId: string): Busy | undefined {
  return duelsOf(world).duelOf(playerId) ? { code: "IN_DUEL", message: "Finish your duel first" } : undefined;
}
