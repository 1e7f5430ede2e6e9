import type { StateView } from "@colyseus/schema";

/**
 * The parts of @colyseus/schema 5's encoder that rooms/interest/sharedEncodes.ts and rooms/interest/moveFrames.ts
 * work on (its change list, ChangeTree fields and the structure-switch byte); the version is
 * pinned in package.json.
 */

/** The byte that starts a structure's operations (@colyseus/schema's SWITCH_TO_STRUCTURE). */
export const SWITCH_TO_STRUCTURE = 255;
/** Room a cached entry may need in the arena (entities are far smaller; checked after each encode). */
export const ENTRY_ROOM = 64 * 1024;

export type Ops = Map<unknown, number>;

export interface Descriptor {
  isSchema: boolean;
  filter: unknown;
  filterBitmask: number;
  hasAnyUnreliable: boolean;
  hasAnyStream: boolean;
  types: unknown[];
  names: string[];
  metadata: unknown;
}

export interface Tree {
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

export interface Node {
  changeTree: Tree;
  next?: Node;
}

export interface EncoderInternals {
  sharedBuffer: Uint8Array;
  root: { changes: { next?: Node }; changeTrees: Record<number, Tree>; pendingFilterRefresh: unknown[] };
  encode(it: { offset: number }, view?: StateView, buffer?: Uint8Array, initialOffset?: number): Uint8Array;
  encodeView(view: StateView, sharedOffset: number, it: { offset: number }, bytes?: Uint8Array): Uint8Array;
  ensureCapacity(buffer: Uint8Array, offset: number): Uint8Array;
}

export interface SerializerInternals {
  encoder: EncoderInternals;
  applyPatches(...args: unknown[]): boolean;
}

/**
 * Run `work` with the encoder's list of changed structures replaced by a list of `only` alone
 * (an empty one without it), the real list put back after: Colyseus's passes walk that list.
 */
export function withChangeList<T>(root: EncoderInternals["root"], only: Tree | undefined, work: () => T): T {
  const changes = root.changes;
  root.changes = { next: only ? { changeTree: only } : undefined };
  try {
    return work();
  } finally {
    root.changes = changes;
  }
}
