import { $changes, StateView } from "@colyseus/schema";
import type { WorldState } from "../../schema/WorldState.js";
import { KINDS, collectionOf, type AnyState } from "./stateCollections.js";

/**
 * Make a fresh StateView hold `held` as a client already holding them would: each state, its
 * collection and the root are marked visible to the view, and nothing is queued, so its next
 * encode sends only what changes from here on (and the DELETE of any of them that left the state
 * this tick). This is how a client moves from one shared view to another without being sent again
 * what it has (rooms/interest/worldViews.ts).
 *
 * @colyseus/schema 5 keeps a view's visibility as bits on each ChangeTree, set by `add()` along
 * with the snapshot it queues; `markVisible` sets the bit alone. The view takes its id from the
 * state's Root on its first `add()`; here it is bound to the Root directly (`_bindRoot`, the same
 * call `add()` makes), since nothing is added.
 */
export function seedView(view: StateView, state: WorldState, held: Iterable<AnyState>) {
  const rootTree = (state as any)[$changes];
  (view as unknown as { _bindRoot(root: unknown): void })._bindRoot(rootTree.root);
  view.markVisible(rootTree);
  for (const kind of KINDS) view.markVisible((collectionOf(state, kind) as any)[$changes]);
  for (const s of held) view.markVisible((s as any)[$changes]);
}

/**
 * StateViews kept for reuse. Disposing a view clears its bit from every ChangeTree of the state
 * (O(entities in the world)); a view released here has its marks cleared on the states it held
 * only (O(what it held)), and its pending changes dropped, ready to be seeded again.
 */
export class ViewPool {
  private readonly free: StateView[] = [];

  constructor(private readonly limit = 1024) {}

  take(): StateView {
    return this.free.pop() ?? new StateView();
  }

  release(view: StateView, held: Iterable<AnyState>) {
    if (this.free.length >= this.limit) {
      view.dispose();
      return;
    }
    for (const s of held) view.unmarkVisible((s as any)[$changes]);
    view.changes.clear();
    this.free.push(view);
  }
}
