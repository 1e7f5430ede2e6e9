import { worldBounds } from "../src/game/tileMap.js";
import type { GameData, Position, WorldArea } from "../src/manifests/index.js";

/**
 * The bench's "spread" map: the default world's areas (towns, woods, mines, npcs, stations,
 * buildings) copied `copies` times side by side on a square grid, so N players are spread over
 * N/copies as many of each place as the crowded default world offers. Copies are `gap` tiles
 * apart; new players still appear at the first copy's spawn.
 */
export function spreadGameData(base: GameData, copies: number, gap = 24): GameData {
  const side = Math.ceil(Math.sqrt(Math.max(1, copies)));
  const { minX, maxX, minZ, maxZ } = worldBounds(base, 0);
  const stepX = maxX - minX + gap;
  const stepZ = maxZ - minZ + gap;
  const worldAreas = new Map<string, WorldArea>();
  const buildings: GameData["buildings"] = [];
  for (let c = 0; c < copies; c++) {
    const dx = (c % side) * stepX;
    const dz = Math.floor(c / side) * stepZ;
    const at = (p: Position): Position => ({ x: p.x + dx, y: p.y, z: p.z + dz });
    const suffix = c === 0 ? "" : `@${c}`;
    for (const a of base.worldAreas.values()) {
      worldAreas.set(a.id + suffix, {
        ...a,
        id: a.id + suffix,
        // Only the first copy's starter town is where players appear.
        isStarterTown: c === 0 && a.isStarterTown,
        bounds: { minX: a.bounds.minX + dx, maxX: a.bounds.maxX + dx, minZ: a.bounds.minZ + dz, maxZ: a.bounds.maxZ + dz },
        spawnPoint: a.spawnPoint && at(a.spawnPoint),
        npcs: a.npcs.map((n) => ({ ...n, position: at(n.position) })),
        resources: a.resources.map((r) => ({ ...r, position: at(r.position) })),
        mobSpawns: a.mobSpawns.map((m) => ({ ...m, position: at(m.position) })),
        stations: a.stations.map((s) => ({ ...s, id: s.id + suffix, position: at(s.position) })),
      });
    }
    for (const b of base.buildings) buildings.push({ ...b, id: b.id + suffix, position: at(b.position) });
  }
  return { ...base, worldAreas, buildings };
}
