import { StateView } from "@colyseus/schema";
import type { EntityKind } from "../../src/game/world/entities.js";
import type { WorldUpdate } from "../../src/protocol/index.js";
import { StateMirror } from "./stateMirror.js";
import { KINDS, collectionOf, type AnyState } from "./stateCollections.js";
import type { Viewer } from "./viewWindows.js";
import { WorldWindows } from "./worldWindows.js";
import type { InterestClient, InterestKind, InterestParts, Seen, WorldInterest } from "./worldInterest.js";

/** A client of schema patches: its own StateView, and the states it holds through it, by kind and id. */
interface PlainClient {
  view: StateView;
  setView: (view: StateView) => void;
  held: Record<EntityKind, Map<string, AnyState>>;
}

/**
 * The plain implementation of interest management (worldInterest.ts): every client of schema
 * patches has a StateView of its own, kept by Colyseus's public `view.add` and `view.remove` alone,
 * and is encoded by Colyseus's own encoder (its patches and its first full state), nothing shared
 * between clients. Which entities each client is shown is the windows' choice (worldWindows.ts),
 * the same as the shared implementation's: after each tick's windows, each client's view is moved
 * to its window's set (for a client handed to another zone after the patch, that zone's set at
 * once, in the tick's patch).
 */
export class PlainInterest implements WorldInterest {
  readonly kind: InterestKind = "plain";
  private readonly windows: WorldWindows;
  private readonly mirror: StateMirror;
  private readonly clients = new Map<string, PlainClient>();

  constructor(private readonly parts: Pick<InterestParts, "world" | "state" | "playerCap">) {
    this.windows = new WorldWindows(parts.world, parts.state, parts.playerCap);
    this.mirror = new StateMirror(parts.world, parts.state);
  }

  syncState() {
    this.mirror.syncState();
  }

  join(playerId: string, client: InterestClient): WorldUpdate | undefined {
    this.dropClient(playerId);
    const v = this.windows.attach(playerId, client);
    this.mirror.syncOne("player", playerId);
    const first = this.windows.refreshViewer(v);
    if (client.setView) {
      const c: PlainClient = {
        view: new StateView(),
        setView: client.setView,
        held: { player: new Map(), npc: new Map(), resource: new Map(), groundItem: new Map(), station: new Map() },
      };
      this.clients.set(playerId, c);
      client.setView(c.view);
      this.show(c, v.visible);
    }
    return first;
  }

  resend(playerId: string): WorldUpdate | undefined {
    const v = this.windows.viewers.get(playerId);
    if (!v) return undefined;
    this.windows.resetViewer(v);
    this.mirror.syncState();
    const full = this.windows.refreshViewer(v);
    const c = this.clients.get(playerId);
    if (c) this.show(c, v.visible);
    return full;
  }

  leave(playerId: string) {
    this.windows.detach(playerId);
    this.dropClient(playerId);
  }

  updateViews(): Map<string, WorldUpdate> {
    const updates = this.windows.updateViews();
    for (const [playerId, c] of this.clients) {
      const v = this.windows.viewers.get(playerId);
      if (v) this.show(c, this.target(v));
    }
    return updates;
  }

  /** The set a viewer's client is to hold after this tick's patch: its window's, or (handed to another zone after the patch) that zone's, sent in the patch. */
  private target(v: Viewer): Seen {
    const to = this.windows.handedTo(v);
    return to ? to.visible : v.visible;
  }

  afterPatch() {
    this.windows.afterPatch();
  }

  /** None: Colyseus's own full state, of what the client's view holds. */
  firstState(): Uint8Array | undefined {
    return undefined;
  }

  /** (One handed to another zone after the patch is shown that zone's set in the tick's patch.) */
  seenBy(playerId: string): Seen | undefined {
    const v = this.windows.viewers.get(playerId);
    return v ? this.target(v) : undefined;
  }

  viewers(): IterableIterator<string> {
    return this.windows.viewers.keys();
  }

  /**
   * Move a client's view to `target`: `view.remove` what it holds that is not in it (a state gone
   * from the schema goes by its collection's delete, or already went), `view.add` what it lacks.
   */
  private show(c: PlainClient, target: Seen) {
    for (const kind of KINDS) {
      const collection = collectionOf(this.parts.state, kind);
      const held = c.held[kind];
      const want = target[kind];
      for (const [id, s] of held) {
        const now = collection.get(id);
        if (want.has(id) && now === s) continue;
        held.delete(id);
        if (now === s) c.view.remove(s);
      }
      for (const id of want) {
        const s = collection.get(id);
        if (!s || held.has(id)) continue;
        held.set(id, s);
        c.view.add(s);
      }
    }
  }

  /** A client's view is given up: its client is pointed at an empty view (it may be sent a patch before it is gone) and the view disposed of. */
  private dropClient(playerId: string) {
    const c = this.clients.get(playerId);
    if (!c) return;
    this.clients.delete(playerId);
    c.setView(new StateView());
    c.view.dispose();
  }
}
