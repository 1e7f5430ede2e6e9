/**
 * Roofs over the buildings, drawn in code: a hipped roof over the walls with a ridge along the
 * building's length, its slopes lit from the north, in the building's kind of roofing (thatch
 * over houses, slate over banks and workshops, red tiles over stores). The view draws each over
 * what stands inside but for the building the player is in.
 */

/** The roofing of each kind of building (the data's `type`): [north slope, south slope, ends, courses]. */
const ROOFING: Readonly<Record<string, readonly [string, string, string, string]>> = {
  house: ["#c9a34e", "#9c7a32", "#b38d3f", "#8a6a2a"],
  bank: ["#6f7a88", "#4e5866", "#5f6977", "#434b57"],
  workshop: ["#5c5a58", "#403e3c", "#4e4c4a", "#353331"],
  store: ["#b0563a", "#84402a", "#9a4a32", "#6e3424"],
};
const THATCH = ROOFING.house!;

/** How far a roof's eaves reach past the walls, in tiles. */
export const EAVES = 0.2;

/**
 * Draw a roof `w` × `h` pixels (eaves included) at the sprite's origin, `t` pixels a tile, for a
 * building of `type`.
 */
export function drawRoof(ctx: CanvasRenderingContext2D, w: number, h: number, t: number, type: string | null) {
  const [north, south, ends, courses] = ROOFING[type ?? ""] ?? THATCH;
  const along = w >= h; // the ridge runs east-west
  const half = (along ? h : w) / 2;
  const shape = (points: Array<[number, number]>, fill: string) => {
    ctx.fillStyle = fill;
    ctx.beginPath();
    ctx.moveTo(points[0]![0], points[0]![1]);
    for (const [x, y] of points.slice(1)) ctx.lineTo(x, y);
    ctx.closePath();
    ctx.fill();
  };
  if (along) {
    const y = h / 2;
    shape(
      [
        [0, 0],
        [w, 0],
        [w - half, y],
        [half, y],
      ],
      north,
    );
    shape(
      [
        [0, h],
        [w, h],
        [w - half, y],
        [half, y],
      ],
      south,
    );
    shape(
      [
        [0, 0],
        [half, y],
        [0, h],
      ],
      ends,
    );
    shape(
      [
        [w, 0],
        [w - half, y],
        [w, h],
      ],
      ends,
    );
  } else {
    const x = w / 2;
    shape(
      [
        [0, 0],
        [w, 0],
        [x, half],
      ],
      north,
    );
    shape(
      [
        [0, h],
        [w, h],
        [x, h - half],
      ],
      south,
    );
    shape(
      [
        [0, 0],
        [x, half],
        [x, h - half],
        [0, h],
      ],
      ends,
    );
    shape(
      [
        [w, 0],
        [x, half],
        [x, h - half],
        [w, h],
      ],
      ends,
    );
  }
  // Courses of thatch or tiles across the slopes, and the ridge.
  ctx.strokeStyle = courses;
  ctx.lineWidth = 1;
  ctx.beginPath();
  const step = Math.max(4, t / 3);
  for (let k = step; k < (along ? h : w) - 1; k += step) {
    if (along) {
      ctx.moveTo(0, k + 0.5);
      ctx.lineTo(w, k + 0.5);
    } else {
      ctx.moveTo(k + 0.5, 0);
      ctx.lineTo(k + 0.5, h);
    }
  }
  ctx.stroke();
  ctx.strokeStyle = "rgba(255,255,255,0.35)";
  ctx.lineWidth = Math.max(1.5, t / 10);
  ctx.beginPath();
  if (along) {
    ctx.moveTo(half, h / 2);
    ctx.lineTo(w - half, h / 2);
  } else {
    ctx.moveTo(w / 2, half);
    ctx.lineTo(w / 2, h - half);
  }
  ctx.stroke();
  ctx.strokeStyle = "rgba(0,0,0,0.55)";
  ctx.lineWidth = 1.5;
  ctx.strokeRect(0.75, 0.75, w - 1.5, h - 1.5);
}
