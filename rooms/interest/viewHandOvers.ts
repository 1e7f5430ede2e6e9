import type { WorldState } from "../../schema/WorldState.js";
import type { CollectionMove } from "./moveFrames.js";
import { KINDS, collectionOf } from "./stateCollections.js";
import type { Window } from "./viewWindows.js";

/** How the room makes and sends the frame that hands a client from one zone's view to another's. */
export interface HandOverFrames {
  /** A patch frame of these removes and adds alone (rooms/interest/sharedEncodes.ts), made after a tick's patch. */
  moveFrame(moves: CollectionMove[]): Uint8Array;
  /** The same as a state message's body, made while the state may have changes not yet patched (a joining client's first state). */
  addsBody(moves: CollectionMove[]): Uint8Array;
  /** Send a frame to the client of a player. */
  send(playerId: string, frame: Uint8Array): void;
}

/**
 * The frame that takes a client holding `from`'s set (as this tick's patch left it) to `to`'s:
 * the removes of what only `from` holds and the adds of what only `to` holds, and nothing else.
 * It is made after the tick's patch, from the two sets alone: it costs what comes and goes, each
 * entity's bytes are made once whatever the number of frames it is in, and one frame serves every
 * client handed from `from` to `to` that tick.
 */
export function handOverFrame(from: Window, to: Window, state: WorldState, frames: HandOverFrames): Uint8Array {
  const moves: CollectionMove[] = [];
  for (const kind of KINDS) {
    const collection = collectionOf(state, kind);
    const before = from.visible[kind];
    const after = to.visible[kind];
    const move: CollectionMove = { collection, removed: [], added: [] };
    for (const id of before) {
      if (after.has(id)) continue;
      const s = collection.get(id);
      if (s) move.removed.push(s);
    }
    for (const id of after) {
      if (before.has(id)) continue;
      const s = collection.get(id);
      if (s) move.added.push(s);
    }
    moves.push(move);
  }
  return frames.moveFrame(moves);
}
