import { TICK_MS } from "../../../src/protocol/vocabulary.js";
import { facingOf } from "./sprites.js";

interface Track {
  fromX: number;
  fromZ: number;
  toX: number;
  toZ: number;
  t0: number;
  facing: number;
  /** The frame it was last asked about (tracks of those gone are dropped). */
  seen: number;
}

/** Where an entity is drawn this frame: between its last two tiles, facing its way, and which step of its walk. */
export interface Drawn {
  x: number;
  z: number;
  facing: number;
  moving: boolean;
  step: number;
}

/**
 * Movement between ticks: the server moves everyone a whole tile (or two) per tick; each entity is
 * drawn sliding from where it was drawn to its new tile over one tick, facing the way it goes. A
 * jump of more than a few tiles (a teleport, a respawn) is not slid.
 */
export class Motion {
  private readonly tracks = new Map<string, Track>();
  private frame = 0;
  private readonly out: Drawn = { x: 0, z: 0, facing: 0, moving: false, step: 0 };

  /** Call once a frame, before the entities are asked about. */
  nextFrame() {
    this.frame++;
    if (this.frame % 300 === 0) for (const [id, t] of this.tracks) if (this.frame - t.seen > 60) this.tracks.delete(id);
  }

  /** Where `id`, whose tile is (x, z) now, is drawn at `now`. The answer is reused: copy what you keep. */
  at(id: string, x: number, z: number, now: number): Drawn {
    let t = this.tracks.get(id);
    if (!t) {
      t = { fromX: x, fromZ: z, toX: x, toZ: z, t0: 0, facing: 0, seen: this.frame };
      this.tracks.set(id, t);
    }
    t.seen = this.frame;
    if (t.toX !== x || t.toZ !== z) {
      // From the tile it stood on (never further back: the drawing lags the world by one tick at most).
      const far = Math.max(Math.abs(x - t.toX), Math.abs(z - t.toZ)) > 3;
      t.facing = facingOf(x - t.toX, z - t.toZ, t.facing);
      t.fromX = far ? x : t.toX;
      t.fromZ = far ? z : t.toZ;
      t.toX = x;
      t.toZ = z;
      // A jump is there at once, not walking on the spot for a tick.
      t.t0 = far ? now - TICK_MS : now;
    }
    const p = this.position(t, now);
    const out = this.out;
    out.x = p.x;
    out.z = p.z;
    out.facing = t.facing;
    out.moving = p.k < 1;
    out.step = out.moving ? Math.floor(now / 150) % 2 : 0;
    return out;
  }

  /** Turn `id` to face (dx, dz) (a fighter facing its foe). */
  face(id: string, dx: number, dz: number) {
    const t = this.tracks.get(id);
    if (t) t.facing = facingOf(Math.sign(dx), Math.sign(dz), t.facing);
  }

  private readonly pos = { x: 0, z: 0, k: 1 };
  private position(t: Track, now: number) {
    const k = Math.min(1, Math.max(0, (now - t.t0) / TICK_MS));
    this.pos.x = t.fromX + (t.toX - t.fromX) * k;
    this.pos.z = t.fromZ + (t.toZ - t.fromZ) * k;
    this.pos.k = k;
    return this.pos;
  }
}
