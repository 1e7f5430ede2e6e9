import { $changes, $getByIndex, $refId, encode, encodeSchemaOperation, OPERATION, type StateView } from "@colyseus/schema";
import { ENTRY_ROOM, SWITCH_TO_STRUCTURE, withChangeList, type Descriptor, type Ops, type SerializerInternals, type Tree } from "./schemaInternals.js";
import { moveFrames, type CollectionMove, type SharedEncodeCounts } from "./moveFrames.js";

/**
 * Encode once, send many: each entity's bytes are made once per patch and copied into every
 * StateView that sees it, where Colyseus's `Encoder.encodeView` encodes them again for every view.
 *
 * A view's part of a patch has two halves: what the view itself queued (`view.add` queues an
 * entity's every field, `view.remove` a delete in its collection), and, for every structure
 * changed this tick that the view sees, its changed fields. Both are the same bytes for every view
 * when the structure is a flat entity (a Schema of primitive fields under a view-filtered
 * collection, with no per-field tags or filter): only which entities are in a view differs. So
 * here, while a patch is being made (`SchemaSerializer.applyPatches`), a flat entity's bytes are
 * encoded the first time a view needs them and copied for the others; anything else (the root,
 * the collections, whose entries depend on what each view sees) is encoded by Colyseus as before.
 *
 * Which changed entities a view sees is read once per patch from the visibility bits each entity
 * carries (one per StateView), so a view's part costs what it sees change, not every change of
 * the tick.
 *
 * The one difference on the wire is order: a view's queued entity entries follow all its queued
 * collection entries instead of being interleaved with them, and the changed collections come
 * before the changed entities. Every entity still comes after the collection entry that
 * introduces it, which is all the decoder needs; the patch has the same length and decodes to the
 * same state (test/rooms/sharedEncodes.test.ts checks both with a real Decoder).
 *
 * This works on @colyseus/schema 5's encoder internals (its change list, ChangeTree fields and the
 * structure-switch byte); the version is pinned in package.json.
 */

/** The arena's size (a new one is made when it is full). */
const ARENA_SIZE = 1024 * 1024;

/** A flat entity's bytes made this patch: its every field as a view's add queues them. */
interface Cached {
  added?: Uint8Array;
  /** The add's operations, field index and op in turn (an add queued otherwise is encoded afresh). */
  addedOps?: number[];
}

const flatness = new WeakMap<Descriptor, boolean>();

/** A Schema of primitive fields only, none tagged or filtered on its own, no unreliable or stream fields. */
function isFlat(tree: Tree): boolean {
  if (!tree.isFiltered) return false;
  const desc = tree.encDescriptor;
  let flat = flatness.get(desc);
  if (flat === undefined) {
    flat =
      desc.isSchema &&
      desc.filter === undefined &&
      desc.filterBitmask === 0 &&
      !desc.hasAnyUnreliable &&
      !desc.hasAnyStream &&
      desc.types.every((t) => typeof t === "string");
    flatness.set(desc, flat);
  }
  return flat;
}

export interface SharedEncodes {
  counts: SharedEncodeCounts;
  /**
   * A patch frame that removes `removed` from a client's collections and adds `added` (every
   * field of each), as a StateView's removes and adds would: made between patches, when the state
   * has no change pending. Each entity's bytes are made again only once it changed since they were last made.
   */
  moveFrame(moves: CollectionMove[]): Uint8Array;
  /**
   * The same removes and adds as a state message's body, without the message's first byte: for a
   * joining client's first state (rooms/interest/firstState.ts). Unlike moveFrame, it may be made while the
   * state has changes not yet patched (an entity among them has its add made afresh).
   */
  addsBody(moves: CollectionMove[]): Uint8Array;
}

/**
 * Make the room's serializer encode each flat entity once per patch (see above). Call after the
 * room's state is set (setting it makes a new serializer). Returns live counts.
 */
export function shareEntityEncodes(serializer: unknown): SharedEncodes {
  const s = serializer as SerializerInternals;
  const encoder = s.encoder;
  const root = encoder.root;
  const colyseusEncode = encoder.encode.bind(encoder);
  const colyseusEncodeView = encoder.encodeView.bind(encoder);
  const colyseusApplyPatches = s.applyPatches.bind(s);
  const counts: SharedEncodeCounts = { encoded: 0, copied: 0, rewritten: 0 };

  /** Set while a patch is being made: its number (0 outside one, when nothing is cached). */
  let patch = 0;
  let patches = 0;
  /**
   * The bytes made this patch, by structure (rooms/interest/moveFrames.ts keeps each entity's whole add
   * between patches, beside them too). Kept beside Colyseus's ChangeTrees, not on
   * them: a property added to some of them gives their class many shapes, and every read of one
   * (here and in Colyseus's encoder) grows slow (bench:world's spread map, 2,000 players).
   */
  const cached = new Map<Tree, Cached>();
  let arena = new Uint8Array(ARENA_SIZE);
  const at = { offset: 0 };
  /** The flat entries taken out of the view being encoded, put back before its walk. */
  let queued: Array<[Tree, Ops]> = [];

  const cachedOf = (tree: Tree): Cached => {
    let c = cached.get(tree);
    if (!c) {
      c = {};
      cached.set(tree, c);
    }
    return c;
  };

  /** Encode into the arena with `write`; returns the bytes written (empty if it wrote only the switch). */
  const inArena = (tree: Tree | undefined, write: (bytes: Uint8Array) => void): Uint8Array => {
    for (;;) {
      if (at.offset + ENTRY_ROOM > arena.length) {
        arena = new Uint8Array(Math.max(ARENA_SIZE, arena.length));
        at.offset = 0;
      }
      const start = at.offset;
      if (tree) {
        arena[at.offset++] = SWITCH_TO_STRUCTURE;
        encode.number(arena, tree.ref[$refId], at);
      }
      const afterSwitch = tree ? at.offset : -1;
      write(arena);
      if (at.offset <= arena.length) {
        counts.encoded++;
        return at.offset === afterSwitch ? arena.subarray(start, start) : arena.subarray(start, at.offset);
      }
      // It did not fit: a bigger arena, and again.
      arena = new Uint8Array(arena.length * 2);
      at.offset = 0;
    }
  };

  const changedCtx = { tree: undefined as unknown as Tree };
  const writeChanged = (ctx: typeof changedCtx, index: number, op: number) => {
    if (op === undefined) return;
    encodeSchemaOperation(encoder as any, arena, ctx.tree as any, index, op, at, false, true, undefined);
  };

  const changedBytes = (tree: Tree): Uint8Array => {
    changedCtx.tree = tree;
    return inArena(tree, () => tree.forEachWithCtx(changedCtx, writeChanged));
  };

  /** Removed from its collection in this patch: Colyseus drops a view's add of it (left to it). */
  const leaving = (tree: Tree): boolean => {
    const parent = tree.parent;
    const index = parent ? tree.indexInParent(parent) : undefined;
    return index !== undefined && parent[$changes].getChange(index) === OPERATION.DELETE;
  };

  const sameOps = (ops: Ops, list: number[]): boolean => {
    if (ops.size * 2 !== list.length) return false;
    let i = 0;
    for (const [key, op] of ops) if (key !== list[i++] || op !== list[i++]) return false;
    return true;
  };

  const addedBytes = (tree: Tree, ops: Ops): Uint8Array => {
    const c = cachedOf(tree);
    if (c.added && sameOps(ops, c.addedOps!)) {
      counts.copied++;
      return c.added;
    }
    const list: number[] = [];
    const bytes = inArena(tree, (out) => {
      const target = tree.refTarget ?? tree.ref;
      for (const [key, op] of ops) {
        const index = key as number;
        list.push(index, op);
        // As Colyseus does: a field with no value any more goes as a delete.
        const operation = (target[$getByIndex](index) !== undefined && op) || OPERATION.DELETE;
        encodeSchemaOperation(encoder as any, out, tree as any, index, operation, at, false, true, undefined);
      }
    });
    c.added = bytes;
    c.addedOps = list;
    return bytes;
  };

  const copyInto = (bytes: Uint8Array, out: Uint8Array, it: { offset: number }): Uint8Array => {
    out = encoder.ensureCapacity(out, it.offset + bytes.length);
    out.set(bytes, it.offset);
    it.offset += bytes.length;
    return out;
  };

  /** Colyseus's view pass over one structure alone (its change list swapped for a list of it). */
  const colyseusPass = (tree: Tree | undefined, it: { offset: number }, view: StateView, out: Uint8Array): Uint8Array =>
    withChangeList(root, tree, () => {
      const r = colyseusEncode(it, view, out);
      return new Uint8Array(r.buffer, r.byteOffset, r.buffer.byteLength - r.byteOffset);
    });

  encoder.encodeView = (view, sharedOffset, it, bytes = encoder.sharedBuffer) => {
    if (patch === 0) return colyseusEncodeView(view, sharedOffset, it, bytes);
    queued = [];
    for (const [refId, ops] of view.changes as Map<number, Ops>) {
      const tree = root.changeTrees[refId];
      if (!tree || ops.size === 0 || !isFlat(tree)) continue;
      let numbered = true;
      for (const key of ops.keys()) if (typeof key !== "number") numbered = false;
      if (!numbered || leaving(tree)) continue;
      queued.push([tree, ops]);
      view.changes.delete(refId);
    }
    return colyseusEncodeView(view, sharedOffset, it, bytes);
  };

  /**
   * The patch's changes sorted once for all the views: the structures that are not flat entities,
   * and the bytes of the changed flat entities each view sees (by view id; made once each), found
   * from the visibility bits each entity carries, so a view's part costs what it sees changed, not
   * every change of the tick.
   */
  let sortedFor = 0;
  const structures: Tree[] = [];
  const changedSeenBy: Uint8Array[][] = [];
  const sortChanges = () => {
    sortedFor = patch;
    structures.length = 0;
    for (const list of changedSeenBy) if (list) list.length = 0;
    for (let node = root.changes.next; node; node = node.next) {
      const tree = node.changeTree;
      if (!isFlat(tree)) {
        structures.push(tree);
        continue;
      }
      const words = tree.visibleViews;
      if (!words || !tree.has()) continue;
      let bytes: Uint8Array | undefined;
      for (let slot = 0; slot < words.length; slot++) {
        for (let word = words[slot]; word !== 0;) {
          const low = word & -word;
          word ^= low;
          const id = slot * 32 + 31 - Math.clz32(low);
          bytes ??= changedBytes(tree);
          if (bytes.length > 0) (changedSeenBy[id] ??= []).push(bytes);
        }
      }
    }
  };

  encoder.encode = (it, view, buffer = encoder.sharedBuffer, initialOffset) => {
    if (patch === 0 || !view) return colyseusEncode(it, view, buffer, initialOffset);
    let out = buffer;
    // Settle what Colyseus settles first (its filter refresh), with nothing to walk.
    if (root.pendingFilterRefresh.length > 0) out = colyseusPass(undefined, it, view, out);
    for (const [tree, ops] of queued) out = copyInto(addedBytes(tree, ops), out, it);
    queued = [];
    if (sortedFor !== patch) sortChanges();
    // The root and the collections first (they introduce what the entities' changes refer to).
    for (const tree of structures) if (view.isChangeTreeVisible(tree as any) && tree.has()) out = colyseusPass(tree, it, view, out);
    const id = (view as unknown as { id: number }).id;
    const seen = id >= 0 ? changedSeenBy[id] : undefined;
    if (seen) {
      for (const bytes of seen) out = copyInto(bytes, out, it);
      counts.copied += seen.length;
    }
    return out;
  };

  const frames = moveFrames(encoder, counts, at, inArena);

  s.applyPatches = (...args: unknown[]) => {
    patch = ++patches;
    at.offset = 0;
    cached.clear();
    // What changes in this patch: a whole made before it is checked before its next use.
    for (let node = root.changes.next; node; node = node.next) frames.changed(node.changeTree);
    try {
      return colyseusApplyPatches(...args);
    } finally {
      patch = 0;
    }
  };
  return { counts, moveFrame: frames.moveFrame, addsBody: frames.addsBody };
}
