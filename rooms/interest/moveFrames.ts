import { Protocol } from "@colyseus/core";
import { $changes, $refId, $values, encode, encodeMapEntry, encodeSchemaOperation, OPERATION } from "@colyseus/schema";
import { ENTRY_ROOM, SWITCH_TO_STRUCTURE, type Descriptor, type EncoderInternals, type Tree } from "./schemaInternals.js";

/** Counts of the entity bytes made and of those copied into a view or frame (read by tests and the benchmark). */
export interface SharedEncodeCounts {
  encoded: number;
  copied: number;
  /** Kept adds brought up to date in place (only fixed-width fields changed). */
  rewritten: number;
}

/**
 * Frames that move a client from one set of entities to another (a zone's hand-over, a joining
 * client's first state): the removes of what it is to stop holding and the adds of what it is to
 * start holding, as a StateView's would be. Each flat entity's add (its entry in its collection and
 * its every field) is made once and kept from patch to patch (rooms/interest/sharedEncodes.ts makes the
 * room's patches; this keeps its own bytes beside them).
 */

/** What a client holding a set of one collection's entities is to stop and start holding. */
export interface CollectionMove {
  collection: object;
  removed: object[];
  added: object[];
}

/**
 * A flat entity's add as a hand-over frame carries it, made between patches: its every field, and
 * its entry's add in its collection. Kept from patch to patch while its place in the collection
 * stays and none of its fields whose bytes vary in length changes: a change of the others alone
 * (a player stepping) is written over the kept bytes.
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

/**
 * The move frames of a room's encoder. `inArena` encodes into the arena the patches share (its
 * cursor `at`), counting into `counts`; `changed` is told of every entity with changes not yet
 * patched, as a patch starts and as a first state is made.
 */
export function moveFrames(
  encoder: EncoderInternals,
  counts: SharedEncodeCounts,
  at: { offset: number },
  inArena: (tree: Tree | undefined, write: (bytes: Uint8Array) => void) => Uint8Array,
) {
  const wholes = new WeakMap<Tree, Whole>();

  /** A field's value, read as Colyseus reads it to encode it. */
  const fieldOf = (tree: Tree, i: number): unknown => tree.ref[$values][i] ?? tree.ref[tree.encDescriptor.names[i]];

  /** Where writeLive put each field's value (absolute in the arena, by field index), for the add being made. */
  let liveAt: number[] = [];
  const writeLive = (tree: Tree, out: Uint8Array) => (index: number) => {
    liveAt[index] = at.offset + 1; // after the byte of the field's index and operation
    encodeSchemaOperation(encoder as any, out, tree as any, index, OPERATION.ADD, at, false, true, undefined);
  };

  /**
   * Bring a stale add up to date in place when only fixed-width fields changed (a player stepping:
   * its tile, world position, moving flag): each such field's value written over the old one.
   * False when a field whose bytes vary in length changed, or one came or went: it is made again.
   */
  const rewrite = (tree: Tree, kept: Whole): boolean => {
    const desc = tree.encDescriptor as Descriptor & { encoders: (((bytes: Uint8Array, value: unknown, it: { offset: number }) => void) | undefined)[] };
    for (let i = 0; i < desc.types.length; i++) {
      const value = fieldOf(tree, i);
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
    const bytes = inArena(tree, (out) => {
      liveAt = [];
      tree.forEachLive(writeLive(tree, out));
    });
    const start = at.offset - bytes.length;
    const types = tree.encDescriptor.types;
    const made: Whole = {
      entry,
      whole: bytes.slice(),
      index,
      refId,
      at: types.map((_, i) => (liveAt[i] === undefined ? -1 : liveAt[i] - start)),
      texts: types.map((t, i) => (FIXED_WIDTH.has(t as string) ? undefined : fieldOf(tree, i))),
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
      let pos = it.offset;
      for (let n = 0; n < m.added.length; n++) {
        // An entry is a few bytes: copied one by one rather than by a call to set().
        const entry = adds[k++].entry;
        for (let i = 0; i < entry.length; i++) out[pos + i] = entry[i];
        pos += entry.length;
      }
      it.offset = pos;
    }
    let pos = it.offset;
    for (const add of adds) {
      out.set(add.whole, pos);
      pos += add.whole.length;
    }
    it.offset = pos;
  };

  const moveFrame = (moves: CollectionMove[]): Uint8Array => {
    if (encoder.root.changes.next !== undefined) throw new Error("moveFrame: the state has changes not yet patched");
    it.offset = 0;
    frame[it.offset++] = Protocol.ROOM_STATE_PATCH;
    writeMoves(moves);
    return frame.slice(0, it.offset);
  };

  const addsBody = (moves: CollectionMove[]): Uint8Array => {
    // Whatever changed since the last patch has its add checked before use (as the next patch starts, it is marked again).
    for (let node = encoder.root.changes.next; node; node = node.next) changed(node.changeTree);
    it.offset = 0;
    writeMoves(moves);
    return frame.slice(0, it.offset);
  };

  return { moveFrame, addsBody, changed };
}
