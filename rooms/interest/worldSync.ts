import type { StateView } from "@colyseus/schema";
import type { World } from "../../src/game/world/World.js";
import type { WorldState } from "../../schema/WorldState.js";
import type { WorldUpdate } from "../../src/protocol/index.js";
import { StateMirror } from "./stateMirror.js";
import { WorldViews } from "./worldViews.js";
import type { HandOverFrames } from "./viewHandOvers.js";
import { shareEntityEncodes } from "./sharedEncodes.js";
import { firstStateOf } from "./firstState.js";
import type { InterestClient, InterestKind, InterestParts, Seen, WorldInterest } from "./worldInterest.js";

/**
 * The shared implementation of interest management (worldInterest.ts), the default: the world
 * mirrored into the Colyseus schema, and `views` (worldViews.ts) deciding which of it each client
 * sees, through StateViews shared by the clients of a zone, with each entity's bytes encoded once a
 * patch (sharedEncodes.ts), hand-over frames between zones and first states copied from a zone's
 * window (firstState.ts).
 */
export class WorldSync implements WorldInterest {
  readonly kind: InterestKind = "shared";
  readonly views: WorldViews;
  private readonly mirror: StateMirror;

  /** The shared implementation of a room: its serializer made to share entity encodes, its frames sent through `parts.send`. */
  static ofRoom(parts: InterestParts): WorldSync {
    // Each entity's bytes are encoded once a patch and copied into every view that sees it.
    const encodes = shareEntityEncodes(parts.serializer);
    const frames: HandOverFrames = { moveFrame: encodes.moveFrame, addsBody: encodes.addsBody, send: parts.send };
    return new WorldSync(parts.world, parts.state, frames, parts.playerCap, parts.serializer);
  }

  constructor(
    world: World,
    private readonly state: WorldState,
    /** How the frames handing clients between zones' views are made and sent. */
    frames: HandOverFrames,
    /** Most other players one viewer sees (VIEW_PLAYER_CAP). */
    playerCap = 250,
    /** The room's serializer, whose encoder a first state is made with (none: Colyseus's own full states). */
    private readonly serializer?: unknown,
  ) {
    this.views = new WorldViews(world, state, frames, playerCap);
    this.mirror = new StateMirror(world, state, this.views);
  }

  syncState() {
    this.mirror.syncState();
  }

  join(playerId: string, client: InterestClient): WorldUpdate | undefined {
    const viewer = this.views.attach(playerId, client);
    // Only the newcomer goes into the schema now (whatever else changed since the tick waits for the
    // next one), so a join costs the same however many players are online.
    this.mirror.syncOne("player", playerId);
    return this.views.refreshViewer(viewer);
  }

  resend(playerId: string): WorldUpdate | undefined {
    const viewer = this.views.viewers.get(playerId);
    if (!viewer) return undefined;
    this.views.resetViewer(viewer);
    this.mirror.syncState();
    return this.views.refreshViewer(viewer);
  }

  leave(playerId: string) {
    this.views.detach(playerId);
  }

  updateViews(): Map<string, WorldUpdate> {
    return this.views.updateViews();
  }

  afterPatch() {
    this.views.afterPatch();
  }

  firstState(client: { view?: StateView }): Uint8Array | undefined {
    const view = client.view;
    const adds = view && this.serializer !== undefined ? this.views.first.firstAdds(view) : undefined;
    return adds ? firstStateOf(this.serializer, view!, this.state, adds) : undefined;
  }

  seenBy(playerId: string): Seen | undefined {
    return this.views.viewers.get(playerId)?.visible;
  }

  viewers(): IterableIterator<string> {
    return this.views.viewers.keys();
  }
}
