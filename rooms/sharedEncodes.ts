import { Protocol } from "@colyseus/core";
import { $changes, $getByIndex, $refId, $values, encode, encodeMapEntry, encodeSchemaOperation, OPERATION, type StateView } from "@colyseus/schema";

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

/** The byte that starts a structure's operations (@colyseus/schema's SWITCH_TO_STRUCTURE). */
const SWITCH_TO_STRUCTURE = 255;
/** Room a cached entry may need in the arena (entities are far smaller; checked after each encode). */
const ENTRY_ROOM = 64 * 1024;
const ARENA_SIZE = 1024 * 1024;

type Ops = Map<unknown, number>;

interface Descriptor {
  isSchema: boolean;
  filter: unknown;
  filterBitmask: number;
  hasAnyUnreliable: boolean;
  hasAnyStream: boolean;
  types: unknown[];
  names: string[];
  metadata: unknown;
}

interface Tree {
  ref: any;
  refTarget: any;
  isFiltered: boolean;
  encDescriptor: Descriptor;
  /** Visibility bits, one per StateView id (32 to a word). */
  visibleViews?: number[];
  parent: any;
  indexInParent(parent: unknown): number | undefined;
  forEachLive(cb: (index: number) => void): void;
  has(): boolean;
  forEachWithCtx<C>(ctx: C, cb: (ctx: C, index: number, op: number) => void): void;
}

interface Node {
  changeTree: Tree;
  next?: Node;
}

interface EncoderInternals {
  sharedBuffer: Uint8Array;
  root: { changes: { next?: Node }; changeTrees: Record<number, Tree>; pendingFilterRefresh: unknown[] };
  encode(it: { offset: number }, view?: StateView, buffer?: Uint8Array, initialOffset?: number): Uint8Array;
  encodeView(view: StateView, sharedOffset: number, it: { offset: number }, bytes?: Uint8Array): Uint8Array;
  ensureCapacity(buffer: Uint8Array, offset: number): Uint8Array;
}

interface SerializerInternals {
  encoder: EncoderInternals;
  applyPatches(...args: unknown[]): boolean;
}

/** A flat entity's bytes made this patch: its every field as a view's add queues them. */
interface Cached {
  added?: Uint8Array;
  /** The add's operations, field index and op in turn (an add queued otherwise is encoded afresh). */
  addedOps?: number[];
}

/**
 * A flat entity's add as a hand-over frame carries it, made between patches: its every field, and
 * its entry's add in its collection. Kept from patch to patch while the entity does not change
 * (a resource, a station, a player standing still), and its place in the collection stays.
 */
interface Whole {
  whole: Uint8Array;
  entry: Uint8Array;
  /** Made at this index in its collection, with this ref id. */
  index: number;
  refId: number;
  /** Where each field's value starts in `whole`, by field index (-1: not in it). */
  at: number[];
  /** The values it was made with of the fields whose bytes vary in length (strings), by field index. */
  texts: unknown[];
  /** The entity changed since it was made: its values are to be checked (and rewritten) before it is used. */
  stale: boolean;
}

/** Field types whose value always takes the same bytes: a change of one is written over the old value in place. */
const FIXED_WIDTH = new Set(["int8", "uint8", "int16", "uint16", "int32", "uint32", "float32", "float64", "boolean"]);

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

/** Counts of the entity bytes made and of those copied into a view or frame (read by tests and the benchmark). */
export interface SharedEncodeCounts {
  encoded: number;
  copied: number;
  /** Kept adds brought up to date in place (only fixed-width fields changed). */
  rewritten: number;
}

/** What a client holding a set of one collection's entities is to stop and start holding. */
export interface CollectionMove {
  collection: object;
  removed: object[];
  added: object[];
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
   * joining client's first state (rooms/firstState.ts). Unlike moveFrame, it may be made while the
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
   * The bytes made this patch, by structure, and each entity's whole add kept between patches (one
   * that changes is forgotten as its patch starts). Kept beside Colyseus's ChangeTrees, not on
   * them: a property added to some of them gives their class many shapes, and every read of one
   * (here and in Colyseus's encoder) grows slow (bench:world's spread map, 2,000 players).
   */
  const cached = new Map<Tree, Cached>();
  const wholes = new WeakMap<Tree, Whole>();
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
  const colyseusPass = (tree: Tree | undefined, it: { offset: number }, view: StateView, out: Uint8Array): Uint8Array => {
    const changes = root.changes;
    root.changes = { next: tree ? { changeTree: tree } : undefined };
    try {
      const r = colyseusEncode(it, view, out);
      return new Uint8Array(r.buffer, r.byteOffset, r.buffer.byteLength - r.byteOffset);
    } finally {
      root.changes = changes;
    }
  };

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

  /** Where writeLive put each field's value (absolute in the arena, by field index), for the add being made. */
  let liveAt: number[] = [];
  const writeLive = (tree: Tree) => (index: number) => {
    liveAt[index] = at.offset + 1; // after the byte of the field's index and operation
    encodeSchemaOperation(encoder as any, arena, tree as any, index, OPERATION.ADD, at, false, true, undefined);
  };

  /**
   * Bring a stale add up to date in place when only fixed-width fields changed (a player stepping:
   * its tile, world position, moving flag): each such field's value written over the old one.
   * False when a field whose bytes vary in length changed, or one came or went: it is made again.
   */
  const rewrite = (tree: Tree, kept: Whole): boolean => {
    const desc = tree.encDescriptor as Descriptor & { encoders: (((bytes: Uint8Array, value: unknown, it: { offset: number }) => void) | undefined)[] };
    const ref = tree.ref;
    const values = ref[$values];
    for (let i = 0; i < desc.types.length; i++) {
      // As Colyseus reads a field to encode it.
      const value = values[i] ?? ref[desc.names[i]];
      const offset = kept.at[i] ?? -1;
      if (offset < 0) {
        if (value !== undefined) return false;
        continue;
      }
      const write = desc.encoders[i];
      if (value === undefined || write === undefined) return false;
      if (!FIXED_WIDTH.has(desc.types[i] as string)) {
        if (value !== kept.texts[i]) return false;
        continue;
      }
      rewriteAt.offset = offset;
      write(kept.whole, value, rewriteAt);
    }
    return true;
  };
  const rewriteAt = { offset: 0 };

  /**
   * A flat entity's add as `view.add` queues it: its entry's add in its collection (key and
   * reference), and every field it has; kept, and made again only once it changed in a field whose
   * bytes vary in length (or moved in its collection) since it was last made: a change of fixed-width
   * fields alone is written over the kept bytes. Copied out of the arena, which each patch reuses.
   */
  const addOf = (tree: Tree, collection: Tree, index: number): Whole => {
    const c = wholes.get(tree);
    const refId = tree.ref[$refId] as number;
    if (c && c.index === index && c.refId === refId && (!c.stale || rewrite(tree, c))) {
      if (c.stale) counts.rewritten++;
      c.stale = false;
      counts.copied++;
      return c;
    }
    const entry = inArena(undefined, (out) => encodeMapEntry(encoder as any, out, collection as any, index, OPERATION.ADD, at, false, true)).slice();
    const bytes = inArena(tree, () => {
      liveAt = [];
      tree.forEachLive(writeLive(tree));
    });
    const start = at.offset - bytes.length;
    const types = tree.encDescriptor.types;
    const made: Whole = {
      entry,
      whole: bytes.slice(),
      index,
      refId,
      at: types.map((_, i) => (liveAt[i] === undefined ? -1 : liveAt[i] - start)),
      texts: types.map((t, i) => (FIXED_WIDTH.has(t as string) ? undefined : tree.ref[$getByIndex](i))),
      stale: false,
    };
    wholes.set(tree, made);
    return made;
  };

  /** An entity with changes not yet patched: its kept add is checked (rewritten, or made again) before it is next used. */
  const changed = (tree: Tree) => {
    const kept = wholes.get(tree);
    if (kept) kept.stale = true;
  };

  const indexIn = (e: object, collection: object): number => {
    const index = ((e as any)[$changes] as Tree).indexInParent(collection);
    if (index === undefined) throw new Error("moveFrame: an entity not in its collection");
    return index;
  };

  let frame = new Uint8Array(64 * 1024);
  const it = { offset: 0 };
  const room = (n: number) => {
    if (it.offset + n + ENTRY_ROOM <= frame.length) return;
    const grown = new Uint8Array(Math.max(frame.length * 2, it.offset + n + ENTRY_ROOM));
    grown.set(frame.subarray(0, it.offset));
    frame = grown;
  };

  /** The adds of the entities a frame adds, in order: their entries go in their collections' parts, then all their fields. */
  const adds: Whole[] = [];
  /** Most bytes a number (a ref id, an index) takes, and so a switch to a structure or an entry's delete. */
  const NUMBER_ROOM = 10;
  /** The removes and adds of `moves` written into `frame` from `it.offset`. */
  const writeMoves = (moves: CollectionMove[]) => {
    // Every add found (kept or made) first, so the frame's room is made once.
    adds.length = 0;
    let need = 0;
    for (const m of moves) {
      need += NUMBER_ROOM * (1 + m.removed.length);
      const collection = (m.collection as any)[$changes] as Tree;
      for (const e of m.added) {
        const add = addOf((e as any)[$changes] as Tree, collection, indexIn(e, m.collection));
        adds.push(add);
        need += add.entry.length + add.whole.length;
      }
    }
    room(need);
    const out = frame;
    let k = 0;
    for (const m of moves) {
      if (m.removed.length === 0 && m.added.length === 0) continue;
      const collection = (m.collection as any)[$changes] as Tree;
      out[it.offset++] = SWITCH_TO_STRUCTURE;
      encode.number(out, collection.ref[$refId], it);
      for (const e of m.removed) encodeMapEntry(encoder as any, out, collection as any, indexIn(e, m.collection), OPERATION.DELETE, it, false, true);
      let at = it.offset;
      for (let n = 0; n < m.added.length; n++) {
        // An entry is a few bytes: copied one by one rather than by a call to set().
        const entry = adds[k++].entry;
        for (let i = 0; i < entry.length; i++) out[at + i] = entry[i];
        at += entry.length;
      }
      it.offset = at;
    }
    let at = it.offset;
    for (const add of adds) {
      out.set(add.whole, at);
      at += add.whole.length;
    }
    it.offset = at;
  };

  const moveFrame = (moves: CollectionMove[]): Uint8Array => {
    if (root.changes.next !== undefined) throw new Error("moveFrame: the state has changes not yet patched");
    it.offset = 0;
    frame[it.offset++] = Protocol.ROOM_STATE_PATCH;
    writeMoves(moves);
    return frame.slice(0, it.offset);
  };

  const addsBody = (moves: CollectionMove[]): Uint8Array => {
    // Whatever changed since the last patch has its add checked before use (as the next patch starts, it is marked again).
    for (let node = root.changes.next; node; node = node.next) changed(node.changeTree);
    it.offset = 0;
    writeMoves(moves);
    return frame.slice(0, it.offset);
  };

  s.applyPatches = (...args: unknown[]) => {
    patch = ++patches;
    at.offset = 0;
    cached.clear();
    // What changes in this patch: a whole made before it is checked before its next use.
    for (let node = root.changes.next; node; node = node.next) changed(node.changeTree);
    try {
      return colyseusApplyPatches(...args);
    } finally {
      patch = 0;
    }
  };
  return { counts, moveFrame, addsBody };
}
