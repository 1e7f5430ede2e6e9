import { $changes } from "@colyseus/schema";
import type { WorldUpdate } from "../../src/protocol/index.js";
import { COLLECTION, KINDS, type AnyState } from "./stateCollections.js";

/**
 * The two forms of `world:update` (PROTOCOL.md §4). The views build one update per window in the
 * "changes" form: an entity entering the view is listed whole, and an entity the viewer already
 * holds is listed as its id and only the fields changed since the last tick. The "whole" form (the
 * default) lists every entity whole: it is made from the changes form once per update object,
 * however many clients take it.
 */

/** What an update lists of one entity (its id and some or all of its fields). */
type Entry = { id: string } & Record<string, unknown>;

/** The schema's record of a flat entity's changed fields since the last patch (@colyseus/schema 5's ChangeTree). */
interface FieldChanges {
  forEachWithCtx<C>(ctx: C, cb: (ctx: C, index: number, op: number) => void): void;
}

/** A change entry's whole entity (the whole form lists that instead). */
const wholeOfChange = new WeakMap<object, object>();
/** Each update's whole form, made once. */
const wholeForms = new WeakMap<WorldUpdate, WorldUpdate>();

const fieldNames = new WeakMap<object, string[]>();

/** The field names of a schema class, by field index. */
function namesOf(s: AnyState): string[] {
  const ctor = s.constructor;
  let names = fieldNames.get(ctor);
  if (!names) {
    const metadata = (ctor as unknown as { [Symbol.metadata]: Record<number, { name: string }> })[Symbol.metadata];
    names = [];
    for (let i = 0; metadata[i] !== undefined; i++) names.push(metadata[i].name);
    fieldNames.set(ctor, names);
  }
  return names;
}

function addField(ctx: { entry: Entry; names: string[]; whole: Record<string, unknown> }, index: number) {
  const name = ctx.names[index];
  if (name !== undefined && name !== "id") ctx.entry[name] = ctx.whole[name];
}

/**
 * The change entry of an entity a viewer already holds: its id and the fields the schema recorded
 * as changed since the last patch (the patch goes out every tick, after the updates). `whole` is
 * the entity's whole JSON this tick.
 */
export function changeEntry(id: string, s: AnyState, whole: object): object {
  const entry: Entry = { id };
  const tree = (s as unknown as { [$changes]: FieldChanges })[$changes];
  tree.forEachWithCtx({ entry, names: namesOf(s), whole: whole as Record<string, unknown> }, addField);
  wholeOfChange.set(entry, whole);
  return entry;
}

/** The lists of an update, one per kind of entity. */
const LISTS = KINDS.map((kind) => COLLECTION[kind]);

/** The whole form of an update: every change entry replaced by its entity's whole JSON (made once per update). */
export function wholeForm(update: WorldUpdate): WorldUpdate {
  let whole = wholeForms.get(update);
  if (whole) return whole;
  whole = update;
  for (const list of LISTS) {
    const entries = update[list] as object[];
    if (!entries.some((e) => wholeOfChange.has(e))) continue;
    if (whole === update) whole = { ...update };
    (whole as unknown as Record<string, object[]>)[list] = entries.map((e) => wholeOfChange.get(e) ?? e);
  }
  wholeForms.set(update, whole);
  return whole;
}

/** The form a client asked for (`worldUpdates: "changes"` takes the changes form). */
export function updateInForm(update: WorldUpdate, changes: boolean): WorldUpdate {
  return changes ? update : wholeForm(update);
}
