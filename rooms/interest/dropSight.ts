import { canSeeGroundItem } from "../../src/game/world/deathPiles.js";
import type { GroundItemEntity } from "../../src/game/world/entities.js";
import type { World } from "../../src/game/world/World.js";

/** No player has this id: ground items visible to it are the ones everybody may see. */
export const ANYONE = "";

/**
 * Who may see the ground items, worked out once a tick for the windows (worldWindows.ts): the
 * items only their owner may see yet, by owner (a client with one near cannot share its zone's
 * window), and every item whose being shown to everyone changed since the last tick (a drop's
 * private window ended), noted as seen anew where it lies (World.seenAnew), so the windows
 * around it find their ground items again though nothing moved.
 */
export class DropSight {
  private readonly privateItems = new Map<string, GroundItemEntity[]>();
  /** The items everybody may see as of the last tick, and the set the next one fills. */
  private shownToAll = new Set<string>();
  private spare = new Set<string>();

  constructor(private readonly world: World) {}

  /** Once a tick, before the windows are brought up to date. */
  update() {
    const w = this.world;
    this.privateItems.clear();
    const before = this.shownToAll;
    const now = this.spare;
    now.clear();
    for (const g of w.groundItems.values()) {
      const shown = canSeeGroundItem(g, ANYONE, w.tick);
      if (shown) now.add(g.id);
      if (shown !== before.has(g.id)) w.seenAnew("groundItem", g.id);
      if (!g.ownerId || shown || !canSeeGroundItem(g, g.ownerId, w.tick)) continue;
      const list = this.privateItems.get(g.ownerId);
      if (list) list.push(g);
      else this.privateItems.set(g.ownerId, [g]);
    }
    this.shownToAll = now;
    this.spare = before;
  }

  /** The items only this player may see yet (as of the last update). */
  privateTo(playerId: string): readonly GroundItemEntity[] {
    return this.privateItems.get(playerId) ?? [];
  }
}
