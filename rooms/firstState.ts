import type { Client, Room } from "@colyseus/core";
import { $changes, $refId, OPERATION, type StateView } from "@colyseus/schema";
import type { WorldState } from "../schema/WorldState.js";
import { KINDS, collectionOf } from "./stateCollections.js";

/** The parts of @colyseus/core's SchemaSerializer the first state is made from. */
interface SerializerInternals {
  encoder: {
    encodeAll(it: { offset: number }, buffer: Uint8Array): Uint8Array;
    encodeView(view: StateView, sharedOffset: number, it: { offset: number }, bytes?: Uint8Array): Uint8Array;
  };
  needFullEncode: boolean;
  fullEncodeCache?: Uint8Array;
  sharedOffsetCache: { offset: number };
  fullEncodeBuffer: Uint8Array;
}

/**
 * A joining client's first state (a ROOM_STATE message) in the time of what it sees, not of the
 * whole world. Colyseus's own full state walks every entity of the state twice per join (the
 * shared part again whenever anything changed since the last patch, and the client's view), so a
 * join cost more the more players were online.
 *
 * Here the shared part (the state's unfiltered fields: only the tick, as every collection is
 * view-filtered) is encoded once per patch, as Colyseus itself marks it stale after each patch,
 * then the view part as a patch encodes it for the client's fresh StateView: the root's field of
 * each collection, and what changed since the last patch that the view sees. Then `adds`: the
 * adds of everything the view was seeded with (FirstViews.firstAdds, rooms/firstViews.ts), each entity's bytes copied
 * from the last time they were made (rooms/sharedEncodes.ts). A first decode onto an empty state
 * is the same as decoding a patch. Only for a view no patch has been encoded from yet; anything
 * else takes Colyseus's way.
 */
export function firstStateOf(serializer: unknown, view: StateView, state: WorldState, adds: Uint8Array): Uint8Array {
  const s = serializer as SerializerInternals;
  // Every collection is introduced, also those the client sees nothing of yet (as a full state
  // would): the root's field of each goes first (the adds queued the root's entry first).
  const rootId = (state as any)[$refId] as number;
  let root = view.changes.get(rootId);
  if (!root) {
    root = new Map();
    view.changes = new Map([[rootId, root], ...view.changes]);
  }
  for (const kind of KINDS) {
    const tree = (collectionOf(state, kind) as any)[$changes];
    view.markVisible(tree);
    if (!root.has(tree.parentIndex)) root.set(tree.parentIndex, OPERATION.ADD);
  }
  if (s.needFullEncode || !s.fullEncodeCache) {
    s.sharedOffsetCache = { offset: 1 };
    s.fullEncodeCache = s.encoder.encodeAll(s.sharedOffsetCache, s.fullEncodeBuffer);
    s.needFullEncode = false;
  }
  const sharedOffset = s.sharedOffsetCache.offset;
  const head = s.encoder.encodeView(view, sharedOffset, { offset: sharedOffset }, s.fullEncodeBuffer);
  const out = new Uint8Array(head.length + adds.length);
  out.set(head);
  out.set(adds, head.length);
  return out;
}

/**
 * Have the room send a joining client's first state by `firstStateOf` when `fresh` gives the
 * view to make it from and the adds of what it holds. Colyseus's Room.sendFullState (private in
 * its types, called on the room for each client that completes its join) is replaced on this
 * room instance only; every other full state (a reconnection, a view already patched) goes the
 * Colyseus way.
 */
export function firstStatesFromViews(room: Room, state: WorldState, fresh: (client: Client) => { view: StateView; adds: Uint8Array } | undefined) {
  const internals = room as unknown as { sendFullState(client: Client): void; _serializer: unknown };
  const colyseusWay = internals.sendFullState.bind(room);
  internals.sendFullState = (client: Client) => {
    const first = fresh(client);
    if (first) client.raw(firstStateOf(internals._serializer, first.view, state, first.adds));
    else colyseusWay(client);
  };
}
