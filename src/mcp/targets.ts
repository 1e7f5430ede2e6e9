import { chebyshev } from "../game/movement.js";
import type { McpPlayer } from "./player.js";

/** A thing in view a tool can act on: its instance id, its kind id, where it stands. */
interface Candidate {
  id: string;
  kind: string;
  x: number;
  z: number;
}

/** What each `interact` action acts on, as the player sees it now (the dead and the depleted passed over). */
function candidates(p: McpPlayer, action: string): Candidate[] {
  const v = p.sight;
  switch (action) {
    case "attack":
    case "talk":
    case "store":
      return [...v.npcs.values()].filter((n) => n.state !== "dead").map((n) => ({ id: n.id, kind: n.npcId, x: n.x, z: n.z }));
    case "gather":
      return [...v.resources.values()].filter((r) => !r.depleted).map((r) => ({ id: r.id, kind: r.resourceId, x: r.x, z: r.z }));
    case "pickup":
      return [...v.groundItems.values()].map((g) => ({ id: g.id, kind: g.itemId, x: g.x, z: g.z }));
    case "pray":
      return [...p.stations.values()].map((s) => ({ id: s.id, kind: s.type, x: s.x, z: s.z }));
    default:
      return [];
  }
}

/**
 * The instance a target names: an instance id as `observe` shows it, as it is; or a kind id (an
 * npc's `npcId` such as a quest journal's `startNpc`, a resource's `resourceId`, a ground item's
 * `itemId`, a station's type) standing for the nearest one of that kind in view. `from` is the
 * kind id when one was resolved, for the answer to name the instance it chose.
 */
export function resolveTarget(p: McpPlayer, action: string, targetId: string | undefined): { targetId: string | undefined; from?: string } {
  if (targetId === undefined) return { targetId };
  const seen = candidates(p, action);
  if (seen.some((c) => c.id === targetId)) return { targetId };
  const here = p.sight.self?.tile;
  const nearest = seen.filter((c) => c.kind === targetId).sort((a, b) => (here ? chebyshev(here, a) - chebyshev(here, b) : 0) || (a.id < b.id ? -1 : 1))[0];
  return nearest ? { targetId: nearest.id, from: targetId } : { targetId };
}
