import type { Client, Room } from "@colyseus/core";
import { $changes, $refId, OPERATION, type StateView } from "@colyseus/schema";
import type { WorldState } from "../../schema/WorldState.js";
import { KINDS, collectionOf } from "./stateCollections.js";
import { withChangeList, type EncoderInternals } from "./schemaInternals.js";

/** The parts of @colyseus/core's SchemaSerializer the first state is made from. */
interface FirstStateInternals {
  encoder: EncoderInternals & { encodeAll(it: { offset: number }, buffer: Uint8Array): Uint8Array };
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
 * then the root's field of each collection for the client's fresh StateView. Then `adds`: the
 * adds of everything the view was seeded with (FirstViews.firstAdds, rooms/interest/firstViews.ts), each
 * entity's bytes copied from the last time they were made (rooms/interest/sharedEncodes.ts), with the
 * values it has now. A first decode onto an empty state is the same as decoding a patch. Only for
 * a view no patch has been encoded from yet; anything else takes Colyseus's way.
 *
 * What changed since the last patch is not encoded for the view here, as a patch would: an entity
 * the view holds that changed between ticks (a character taken over or back before the next tick,
 * its state still in the schema) would have its changes before the entry that introduces it, and
 * the client's decoder would skip them with an error. Its add has its values as they are now, and
 * the next patch, which the client is sent once it has its first state, brings the same changes
 * again.
 */
export function firstStateOf(serializer: unknown, view: StateView, state: WorldState, adds: Uint8Array): Uint8Array {
  const s = serializer as FirstStateInternals;
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
  // The view's own queue alone (the root's entry): the state's change list is hidden from its view pass.
  const head = withChangeList(s.encoder.root, undefined, () => s.encoder.encodeView(view, sharedOffset, { offset: sharedOffset }, s.fullEncodeBuffer));
  const out = new Uint8Array(head.length + adds.length);
  out.set(head);
  out.set(adds, head.length);
  return out;
}

/**
 * Have the room send a joining client's first state as `made` makes it, where it does (the
 * shared interest implementation's first states, made by `firstStateOf`). Colyseus's
 * Room.sendFullState (private in its types, called on the room for each client that completes its
 * join) is replaced on this room instance only; every other full state (`made` gives none: a
 * reconnection, a view already patched, the plain implementation) goes the Colyseus way.
 */
export function firstStatesFrom(room: Room, made: (client: Client) => Uint8Array | undefined) {
  const internals = room as unknown as { sendFullState(client: Client): void };
  const colyseusWay = internals.sendFullState.bind(room);
  internals.sendFullState = (client: Client) => {
    const first = made(client);
    if (first) client.raw(first);
    else colyseusWay(client);
  };
}
