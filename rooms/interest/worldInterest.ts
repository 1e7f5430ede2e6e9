import type { StateView } from "@colyseus/schema";
import type { EntityKind } from "../../src/game/world/entities.js";
import type { World } from "../../src/game/world/World.js";
import type { WorldState } from "../../schema/WorldState.js";
import type { WorldUpdate } from "../../src/protocol/index.js";

/**
 * Interest management: which of the world each client of a world room sees, and how that reaches
 * it. The room and its tick use it through this interface alone; two implementations stand behind
 * it, chosen when the room is made (`interest` among WorldRoom's options):
 *
 * - "shared" (the default, worldSync.ts's WorldSync): the clients standing in one zone share one
 *   StateView, each entity's bytes are encoded once a patch and copied into every view that sees
 *   it, a client stepping into another zone is sent one frame made for everyone making the same
 *   step, and a joining client's first state is copied from its zone's window. It works on
 *   @colyseus/schema's internals (pinned in package.json).
 * - "plain" (plainInterest.ts's PlainInterest): one StateView per client of patches, kept by
 *   `view.add` and `view.remove` alone, and Colyseus's own encoder and full state. It shows each
 *   client the same entities by the same rules (it shares the windows' choice, worldWindows.ts),
 *   so it is the reference the shared one is checked against (test/rooms/interestKinds.test.ts).
 *
 * What a client sees (PROTOCOL.md §2): everything within AOI_RADIUS of the middle of its zone (a
 * window of its own, centred on itself, while it cannot share its zone's), at most the player cap
 * of other players, ground items only once it may see them. Clients of `world:update` JSON (the
 * /ws adapter, the agents, MCP) are sent the same windows as deltas, whichever implementation.
 */

/** The implementations, by name. */
export const INTEREST_KINDS = ["shared", "plain"] as const;
export type InterestKind = (typeof INTEREST_KINDS)[number];

/** What an implementation is made with: the room's world, its schema state and serializer, and how to reach a client. */
export interface InterestParts {
  world: World;
  state: WorldState;
  /** Most other players one viewer sees (VIEW_PLAYER_CAP). */
  playerCap: number;
  /** The room's @colyseus/core SchemaSerializer (set up with `state`). */
  serializer: unknown;
  /** Send bytes to the client of a player as they are (a patch frame made outside the room's patch). */
  send(playerId: string, frame: Uint8Array): void;
}

/** A viewer's client, as a join hands it in. */
export interface InterestClient {
  /** Takes `world:update` JSON deltas. */
  json: boolean;
  /** Points the client's schema patches at a StateView (absent: a client of no schema patches). */
  setView?: (view: StateView) => void;
}

/** The ids of the entities a viewer is shown, by kind. */
export type Seen = Readonly<Record<EntityKind, ReadonlySet<string>>>;

export interface WorldInterest {
  readonly kind: InterestKind;

  /** Copy the tick's changes of the world into the schema state (once a tick after the rules, and once as the room starts). */
  syncState(): void;

  /**
   * A player's client comes in (its player in the world already, between two ticks): it is put
   * into the schema alone, given what is in range now, and its StateView, if it takes patches.
   * Returns its first `world:update` (everything in view) when it takes them.
   */
  join(playerId: string, client: InterestClient): WorldUpdate | undefined;

  /** A client of `world:update` that missed what it was sent (a resumed /ws socket): its next update, returned, lists everything in view again. */
  resend(playerId: string): WorldUpdate | undefined;

  /** A player's client goes (left, taken over): nothing is kept for it. */
  leave(playerId: string): void;

  /** The tick's windows, after syncState: every viewer's brought up to date; returns the `world:update` of each viewer that takes them. */
  updateViews(): Map<string, WorldUpdate>;

  /** After the tick's schema patch went out (a hand-over frame may follow it). */
  afterPatch(): void;

  /**
   * The bytes of a joining client's first state (a whole ROOM_STATE message), when the
   * implementation makes it itself; undefined: Colyseus's own full state.
   */
  firstState(client: { view?: StateView }): Uint8Array | undefined;

  /** What a viewer's client is shown now (after a tick: what it holds); undefined for no viewer. */
  seenBy(playerId: string): Seen | undefined;

  /** The players with a viewer. */
  viewers(): IterableIterator<string>;
}
