import type { AreaInfo, WorldMap } from "../api.js";

/** What a tile of ground is, as drawn (never what the server walks on: that is the map's bitset). */
export enum Ground {
  Sea,
  Wild,
  Grass,
  Town,
  Forest,
  Hills,
  Sand,
  Field,
  Road,
  Cobble,
  Shallows,
  Water,
  Floor,
}

/** The colours of the ground and of the minimap, per kind: [base, detail]. */
export const GROUND_COLOURS: Record<Ground, [string, string]> = {
  [Ground.Sea]: ["#1f4f7a", "#2b6496"],
  [Ground.Wild]: ["#4f7a32", "#5d8a3a"],
  [Ground.Grass]: ["#5f9440", "#6fa64a"],
  [Ground.Town]: ["#6a9c46", "#79ad52"],
  [Ground.Forest]: ["#2f5f26", "#3a7030"],
  [Ground.Hills]: ["#8a7b5e", "#9b8c6c"],
  [Ground.Sand]: ["#d6c38a", "#c9b479"],
  [Ground.Field]: ["#7a6236", "#8e7a3e"],
  [Ground.Road]: ["#a08458", "#93784e"],
  [Ground.Cobble]: ["#8f8a80", "#7c776e"],
  [Ground.Shallows]: ["#3f86b8", "#5a9ccb"],
  [Ground.Water]: ["#2a6fa6", "#3c83ba"],
  [Ground.Floor]: ["#8a6a44", "#7a5c3a"],
};

/** Water of any depth: the shallows, open water and the sea. */
function isWater(g: Ground): boolean {
  return g === Ground.Water || g === Ground.Shallows || g === Ground.Sea;
}

/** A small, stable hash of a tile: the same tile always gets the same tufts and shades. */
export function tileHash(x: number, z: number): number {
  let h = (x * 374761393 + z * 668265263) | 0;
  h = (h ^ (h >>> 13)) * 1274126177;
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

interface Rect {
  minX: number;
  maxX: number;
  minZ: number;
  maxZ: number;
}

const inside = (r: Rect, x: number, z: number) =>
  x >= Math.min(r.minX, r.maxX) && x <= Math.max(r.minX, r.maxX) && z >= Math.min(r.minZ, r.maxZ) && z <= Math.max(r.minZ, r.maxZ);

/** A building's door: the middle of the side facing the town's spawn. */
export interface Door {
  x: number;
  z: number;
  side: "n" | "s" | "e" | "w";
}

/**
 * The ground of the whole world as kinds of tile, worked out once from the map and the areas: each
 * area's biome (plains, forest, hills, shore), the town's crossing roads and square, roads out to
 * every area, the sea past the shore's fishing spots and around the world, building floors.
 */
export class GroundPlan {
  readonly kinds: Uint8Array;
  readonly doors = new Map<string, Door>();
  readonly minX: number;
  readonly minZ: number;
  readonly width: number;
  readonly depth: number;

  constructor(
    readonly map: WorldMap,
    readonly areas: AreaInfo[],
  ) {
    const b = map.bounds;
    this.minX = b.minX;
    this.minZ = b.minZ;
    this.width = map.width;
    this.depth = map.depth;
    this.kinds = new Uint8Array(this.width * this.depth).fill(Ground.Wild);
    this.paintAreas();
    this.paintRoads();
    this.paintWater();
    for (const bd of map.buildings) this.fill(bd, Ground.Floor);
    this.placeDoors();
  }

  at(x: number, z: number): Ground {
    const i = x - this.minX;
    const k = z - this.minZ;
    if (i < 0 || k < 0 || i >= this.width || k >= this.depth) return Ground.Sea;
    return this.kinds[k * this.width + i] as Ground;
  }

  private set(x: number, z: number, g: Ground) {
    const i = x - this.minX;
    const k = z - this.minZ;
    if (i < 0 || k < 0 || i >= this.width || k >= this.depth) return;
    this.kinds[k * this.width + i] = g;
  }

  private fill(r: Rect, g: Ground, only?: (x: number, z: number) => boolean) {
    for (let z = Math.min(r.minZ, r.maxZ); z <= Math.max(r.minZ, r.maxZ); z++)
      for (let x = Math.min(r.minX, r.maxX); x <= Math.max(r.minX, r.maxX); x++) if (!only || only(x, z)) this.set(x, z, g);
  }

  private biomeOf(a: AreaInfo): Ground {
    const words = `${a.biomeType ?? ""} ${a.description ?? ""}`.toLowerCase();
    if (a.isStarterTown) return Ground.Town;
    if (a.biomeType === "forest") return Ground.Forest;
    if (a.biomeType === "hills") return Ground.Hills;
    if (a.biomeType === "shore") return Ground.Sand;
    if (/farmland|field/.test(words)) return Ground.Field;
    return Ground.Grass;
  }

  private paintAreas() {
    for (const a of this.areas) {
      const g = this.biomeOf(a);
      const r = a.bounds;
      this.fill(r, g, g === Ground.Field ? (x, z) => tileHash(x >> 2, z) > 0.08 || z % 3 !== 0 : undefined);
      // Sand rings of a duelling yard: two squares in the middle of its lawn.
      if (/sand ring/.test((a.description ?? "").toLowerCase())) {
        const cx = Math.round((r.minX + r.maxX) / 2);
        const cz = Math.round((r.minZ + r.maxZ) / 2);
        this.fill({ minX: cx - 12, maxX: cx - 3, minZ: cz - 5, maxZ: cz + 5 }, Ground.Sand);
        this.fill({ minX: cx + 3, maxX: cx + 12, minZ: cz - 5, maxZ: cz + 5 }, Ground.Sand);
      }
    }
  }

  /** The town's crossing of four roads and its square, and a road from the square to each area. */
  private paintRoads() {
    const spawn = this.map.spawn;
    if (!spawn) return;
    const town = this.areas.find((a) => a.isStarterTown && inside(a.bounds, spawn.x, spawn.z));
    if (town) {
      const t = town.bounds;
      this.fill({ minX: t.minX, maxX: t.maxX, minZ: spawn.z - 1, maxZ: spawn.z }, Ground.Road);
      this.fill({ minX: spawn.x - 1, maxX: spawn.x, minZ: t.minZ, maxZ: t.maxZ }, Ground.Road);
      this.fill({ minX: spawn.x - 4, maxX: spawn.x + 3, minZ: spawn.z - 4, maxZ: spawn.z + 3 }, Ground.Cobble);
    }
    for (const a of this.areas) {
      if (a === town) continue;
      const r = a.bounds;
      const cx = Math.round((r.minX + r.maxX) / 2);
      const cz = Math.round((r.minZ + r.maxZ) / 2);
      // Along x at the spawn's row to the area's middle column, then along z into the area.
      const roadTo = (fromX: number, toX: number, z: number) => {
        for (let x = Math.min(fromX, toX); x <= Math.max(fromX, toX); x++) for (const dz of [-1, 0]) this.road(x, z + dz, a);
      };
      const roadZ = (fromZ: number, toZ: number, x: number) => {
        for (let z = Math.min(fromZ, toZ); z <= Math.max(fromZ, toZ); z++) for (const dx of [-1, 0]) this.road(x + dx, z, a);
      };
      if (inside({ ...r, minZ: -1e9, maxZ: 1e9 }, spawn.x, 0) || Math.abs(cz - spawn.z) > Math.abs(cx - spawn.x)) {
        roadTo(spawn.x, cx, spawn.z);
        roadZ(spawn.z, cz > spawn.z ? Math.min(cz, r.minZ + 3) : Math.max(cz, r.maxZ - 3), cx);
      } else {
        roadZ(spawn.z, cz, spawn.x);
        roadTo(spawn.x, cx > spawn.x ? Math.min(cx, r.minX + 3) : Math.max(cx, r.maxX - 3), cz);
      }
    }
  }

  private road(x: number, z: number, to: AreaInfo) {
    const g = this.at(x, z);
    // A road runs over grass and into the edge of its area, never over water or buildings.
    if (g === Ground.Sea || g === Ground.Floor || g === Ground.Cobble) return;
    if (inside(to.bounds, x, z) && !this.nearEdge(to.bounds, x, z, 3)) return;
    // Inside the town only its own crossing roads run.
    if (this.areas.some((a) => a.isStarterTown && inside(a.bounds, x, z))) return;
    this.set(x, z, Ground.Road);
  }

  private nearEdge(r: Rect, x: number, z: number, n: number) {
    return x - r.minX < n || r.maxX - x < n || z - r.minZ < n || r.maxZ - z < n;
  }

  /** Shallows around each fishing spot; open water beyond the spots, on the side away from the spawn. */
  private paintWater() {
    const spots = this.map.resources.filter((r) => r.skill === "fishing");
    for (const a of this.areas) {
      const mine = spots.filter((s) => inside(a.bounds, s.x, s.z));
      if (mine.length === 0) continue;
      const spawn = this.map.spawn ?? { x: 0, z: 0 };
      const meanZ = mine.reduce((n, s) => n + s.z, 0) / mine.length;
      const north = meanZ > spawn.z;
      const edge = north ? Math.max(...mine.map((s) => s.z)) + 2 : Math.min(...mine.map((s) => s.z)) - 2;
      const r = a.bounds;
      this.fill(r, Ground.Water, (_x, z) => (north ? z >= edge : z <= edge));
      for (const s of mine) {
        for (let dz = -2; dz <= 2; dz++)
          for (let dx = -2; dx <= 2; dx++) {
            const d = Math.hypot(dx, dz);
            if (d <= 0.5) this.set(s.x + dx, s.z + dz, Ground.Water);
            else if (d <= 1.6 + tileHash(s.x + dx, s.z + dz) * 0.6 && this.at(s.x + dx, s.z + dz) !== Ground.Water)
              this.set(s.x + dx, s.z + dz, Ground.Shallows);
          }
        // A channel from each spot out to the open water.
        for (let z = s.z; north ? z <= edge : z >= edge; z += north ? 1 : -1) this.set(s.x, z, Ground.Water);
      }
    }
  }

  private placeDoors() {
    const spawn = this.map.spawn ?? { x: 0, z: 0 };
    for (const b of this.map.buildings) {
      const cx = Math.round((b.minX + b.maxX) / 2);
      const cz = Math.round((b.minZ + b.maxZ) / 2);
      const dx = spawn.x - cx;
      const dz = spawn.z - cz;
      const door: Door =
        Math.abs(dz) >= Math.abs(dx)
          ? { x: cx, z: dz > 0 ? b.maxZ : b.minZ, side: dz > 0 ? "n" : "s" }
          : { x: dx > 0 ? b.maxX : b.minX, z: cz, side: dx > 0 ? "e" : "w" };
      this.doors.set(b.id, door);
      // The path from the door to the nearest road.
      const step = { n: [0, 1], s: [0, -1], e: [1, 0], w: [-1, 0] }[door.side];
      for (let k = 1; k <= 2; k++) {
        const x = door.x + step[0]! * k;
        const z = door.z + step[1]! * k;
        if (this.at(x, z) !== Ground.Floor && this.at(x, z) !== Ground.Sea) this.set(x, z, Ground.Road);
      }
    }
  }
}

/**
 * The ground drawn into chunks of CHUNK×CHUNK tiles at the zoom in use, each made once and kept
 * (a few dozen at most): a frame draws a handful of images instead of thousands of tiles.
 */
export const CHUNK = 16;

export class GroundChunks {
  private readonly chunks = new Map<string, HTMLCanvasElement>();
  private tile = 0;

  constructor(private readonly plan: GroundPlan) {}

  /** The chunk holding tiles [cx*CHUNK, cx*CHUNK+CHUNK) × [cz*CHUNK, ...), drawn north up at `tile` px per tile. */
  chunk(cx: number, cz: number, tile: number): HTMLCanvasElement {
    if (tile !== this.tile) {
      this.chunks.clear();
      this.tile = tile;
    }
    const key = `${cx},${cz}`;
    let c = this.chunks.get(key);
    if (!c) {
      if (this.chunks.size > 64) this.chunks.delete(this.chunks.keys().next().value!);
      c = document.createElement("canvas");
      c.width = c.height = CHUNK * tile;
      this.paint(c.getContext("2d")!, cx * CHUNK, cz * CHUNK, tile);
      this.chunks.set(key, c);
    }
    return c;
  }

  private paint(ctx: CanvasRenderingContext2D, x0: number, z0: number, t: number) {
    const plan = this.plan;
    for (let k = 0; k < CHUNK; k++) {
      for (let i = 0; i < CHUNK; i++) {
        const x = x0 + i;
        const z = z0 + k;
        // North up: the chunk's top row is its highest z.
        const px = i * t;
        const py = (CHUNK - 1 - k) * t;
        const g = plan.at(x, z);
        const [base, detail] = GROUND_COLOURS[g];
        const h = tileHash(x, z);
        ctx.fillStyle = base;
        ctx.fillRect(px, py, t, t);
        ctx.fillStyle = detail;
        switch (g) {
          case Ground.Grass:
          case Ground.Town:
          case Ground.Wild:
          case Ground.Forest:
            // Tufts of grass.
            for (let n = 0; n < 3; n++) {
              const hx = tileHash(x * 7 + n, z * 3 - n);
              const hz = tileHash(x * 5 - n, z * 11 + n);
              ctx.fillRect(px + hx * (t - 3), py + hz * (t - 4), Math.max(1, t / 16), Math.max(2, t / 8));
            }
            if (g === Ground.Forest) this.paintUndergrowth(ctx, x, z, px, py, t, h);
            if (g !== Ground.Forest && h > 0.93) {
              ctx.fillStyle = h > 0.965 ? "#f2e27a" : "#f4f0f0";
              ctx.fillRect(px + t * 0.4, py + t * 0.4, Math.max(2, t / 10), Math.max(2, t / 10));
            }
            break;
          case Ground.Hills:
            if (h > 0.5) {
              ctx.fillStyle = h > 0.8 ? "#6e624c" : "#a39474";
              ctx.beginPath();
              ctx.ellipse(px + t * h, py + t * (1 - h * 0.7), t * 0.12, t * 0.08, 0, 0, Math.PI * 2);
              ctx.fill();
            }
            break;
          case Ground.Sand:
            for (let n = 0; n < 2; n++) ctx.fillRect(px + tileHash(x + n, z) * t, py + tileHash(x, z + n) * t, 1.5, 1.5);
            break;
          case Ground.Field:
            // Furrows running east-west.
            ctx.fillRect(px, py + t * 0.3, t, Math.max(1, t / 8));
            ctx.fillRect(px, py + t * 0.75, t, Math.max(1, t / 8));
            break;
          case Ground.Road:
            if (h > 0.6) ctx.fillRect(px + h * t * 0.7, py + (1 - h) * t * 0.7, t * 0.2, t * 0.12);
            break;
          case Ground.Cobble:
            ctx.strokeStyle = detail;
            ctx.lineWidth = 1;
            ctx.strokeRect(px + 0.5, py + 0.5, t / 2, t / 2);
            ctx.strokeRect(px + t / 2 + 0.5, py + t / 2 + 0.5, t / 2 - 1, t / 2 - 1);
            break;
          case Ground.Water:
          case Ground.Shallows:
          case Ground.Sea:
            this.paintWaves(ctx, x, z, px, py, t, h);
            break;
          case Ground.Floor:
            // Planks.
            ctx.fillRect(px, py + t / 3, t, 1);
            ctx.fillRect(px, py + (2 * t) / 3, t, 1);
            ctx.fillRect((px + h * t) | 0, py, 1, t / 3);
            break;
        }
      }
    }
    this.paintBuildings(ctx, x0, z0, t);
  }

  /**
   * The forest floor under the trees: fallen leaves, and here and there a fern or a bush (ground
   * only: nothing to click, nothing in the way).
   */
  private paintUndergrowth(ctx: CanvasRenderingContext2D, x: number, z: number, px: number, py: number, t: number, h: number) {
    ctx.fillStyle = "#6a4a26";
    for (let n = 0; n < 2; n++) {
      const lx = tileHash(x * 13 + n, z * 7);
      const lz = tileHash(x * 5, z * 17 + n);
      if (lx > 0.55) ctx.fillRect(px + lz * (t - 3), py + lx * (t - 3), Math.max(1.5, t / 14), Math.max(1, t / 20));
    }
    if (h > 0.95) {
      // A fern: fronds from one root.
      const fx = px + t * 0.5;
      const fy = py + t * 0.75;
      ctx.strokeStyle = "#4f8a2c";
      ctx.lineWidth = Math.max(1, t / 18);
      ctx.beginPath();
      for (const a of [-1.1, -0.55, 0, 0.55, 1.1]) {
        ctx.moveTo(fx, fy);
        ctx.quadraticCurveTo(fx + Math.sin(a) * t * 0.25, fy - t * 0.35, fx + Math.sin(a) * t * 0.4, fy - Math.cos(a) * t * 0.3);
      }
      ctx.stroke();
    } else if (h > 0.9) {
      // A bush: a few dark leaf balls with a lit top.
      const bx = px + t * (0.3 + h * 0.3);
      const by = py + t * 0.55;
      ctx.fillStyle = "#1f4a18";
      ctx.beginPath();
      ctx.arc(bx - t * 0.12, by, t * 0.17, 0, Math.PI * 2);
      ctx.arc(bx + t * 0.12, by, t * 0.17, 0, Math.PI * 2);
      ctx.arc(bx, by - t * 0.1, t * 0.18, 0, Math.PI * 2);
      ctx.fill();
      ctx.fillStyle = "#3f7a2a";
      ctx.beginPath();
      ctx.arc(bx - t * 0.04, by - t * 0.16, t * 0.08, 0, Math.PI * 2);
      ctx.fill();
    }
  }

  /**
   * A tile of water: a darker trough and a wave's lit crest or two (the same on the same tile),
   * and foam along the edges it shares with the land.
   */
  private paintWaves(ctx: CanvasRenderingContext2D, x: number, z: number, px: number, py: number, t: number, h: number) {
    const plan = this.plan;
    ctx.lineCap = "round";
    ctx.lineWidth = Math.max(1, t / 16);
    for (let n = 0; n < 2; n++) {
      if (n === 1 && h < 0.5) break;
      const wx = px + tileHash(x * 3 + n, z) * t * 0.6 + t * 0.2;
      const wy = py + tileHash(x, z * 3 + n) * t * 0.6 + t * 0.25;
      const r = t * (0.14 + 0.08 * h);
      ctx.strokeStyle = "rgba(10,40,70,0.35)";
      ctx.beginPath();
      ctx.arc(wx, wy + ctx.lineWidth, r, Math.PI * 1.15, Math.PI * 1.85);
      ctx.stroke();
      ctx.strokeStyle = "rgba(225,240,255,0.55)";
      ctx.beginPath();
      ctx.arc(wx, wy, r, Math.PI * 1.15, Math.PI * 1.85);
      ctx.stroke();
    }
    const foam = Math.max(1.5, t / 10);
    ctx.fillStyle = "rgba(240,248,255,0.6)";
    if (!isWater(plan.at(x, z + 1))) ctx.fillRect(px, py, t, foam);
    if (!isWater(plan.at(x, z - 1))) ctx.fillRect(px, py + t - foam, t, foam);
    if (!isWater(plan.at(x - 1, z))) ctx.fillRect(px, py, foam, t);
    if (!isWater(plan.at(x + 1, z))) ctx.fillRect(px + t - foam, py, foam, t);
  }

  /** Walls around each building's floor, with its door left open. */
  private paintBuildings(ctx: CanvasRenderingContext2D, x0: number, z0: number, t: number) {
    const w = Math.max(3, t / 5);
    for (const b of this.plan.map.buildings) {
      if (b.maxX < x0 - 1 || b.minX > x0 + CHUNK || b.maxZ < z0 - 1 || b.minZ > z0 + CHUNK) continue;
      const left = (b.minX - x0) * t;
      const right = (b.maxX + 1 - x0) * t;
      const top = (CHUNK - 1 - (b.maxZ - z0)) * t;
      const bottom = (CHUNK - (b.minZ - z0)) * t;
      ctx.fillStyle = "#4a3b2e";
      ctx.fillRect(left, top, right - left, w);
      ctx.fillRect(left, bottom - w, right - left, w);
      ctx.fillRect(left, top, w, bottom - top);
      ctx.fillRect(right - w, top, w, bottom - top);
      ctx.fillStyle = "#6d5a48";
      ctx.fillRect(left + 1, top + 1, right - left - 2, w / 2);
      const door = this.plan.doors.get(b.id);
      if (door) {
        const dx = (door.x - x0) * t;
        const dy = (CHUNK - 1 - (door.z - z0)) * t;
        ctx.fillStyle = "#5b3a1e";
        if (door.side === "n") ctx.fillRect(dx + t * 0.2, top, t * 0.6, w);
        if (door.side === "s") ctx.fillRect(dx + t * 0.2, bottom - w, t * 0.6, w);
        if (door.side === "w") ctx.fillRect(left, dy + t * 0.2, w, t * 0.6);
        if (door.side === "e") ctx.fillRect(right - w, dy + t * 0.2, w, t * 0.6);
        ctx.fillStyle = "#c9a44a";
        ctx.fillRect(dx + t * 0.45, dy + t * 0.45, 2, 2);
      }
    }
  }
}
