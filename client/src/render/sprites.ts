/**
 * Everything on the map that is not ground, drawn in code: figures (people, goblins, animals) with
 * a facing, trees, rocks, fishing spots, stumps, fires, stations and altars, and text labels. Each
 * is drawn once per zoom into a small canvas cropped to the pixels it drew, and kept, so a frame
 * is a list of drawImage calls that blend no more than each thing's own pixels.
 */

import type { Look } from "./looks.js";
import { drawPosedArms, type Pose } from "./poses.js";

/** A sprite: the pixels it drew, cropped, and where they sat in the box it was drawn in. */
export interface Sprite {
  /** The drawn pixels, null if it drew none. */
  src: ImageBitmap | null;
  /** The drawn pixels' corner in the box (pixels from its top-left). */
  ox: number;
  oy: number;
  /** The box it was drawn in. */
  width: number;
  height: number;
}

/** Past this many sprites the cache starts again (a zoom change does too). */
const MAX_SPRITES = 4000;
/**
 * Making a sprite takes a third of a millisecond: a frame makes at most this many of those that
 * have a stand-in (a tick that turns a crowd would otherwise make dozens in one frame).
 */
const MADE_A_FRAME = 2;

export class SpriteCache {
  private readonly sprites = new Map<string, Sprite>();
  /** Sprites by a number, for those looked up many times a frame (figures): no key to build. */
  private readonly indexed = new Map<string, Sprite[]>();
  private tile = 0;
  private made = 0;
  private madeThisFrame = 0;
  private scratch: CanvasRenderingContext2D | null = null;

  /** The sprite for `key` at `tile` px per tile, drawn by `draw` into a `w` × `h` box on first use. */
  get(key: string, tile: number, w: number, h: number, draw: (ctx: CanvasRenderingContext2D) => void): Sprite {
    this.atTile(tile);
    let s = this.sprites.get(key);
    if (!s) {
      s = this.make(w, h, draw);
      this.sprites.set(key, s);
    }
    return s;
  }

  /**
   * The sprite number `i` of the family `family` (as `get`, without building a key a frame). Past
   * MADE_A_FRAME new sprites this frame, the family's sprite number `spare` (or else any of the
   * family's) stands in for a new one: a step, a pose or a turn drawn a frame late, not a frame
   * drawn late.
   */
  nth(family: string, i: number, tile: number, w: number, h: number, draw: (ctx: CanvasRenderingContext2D) => void, spare = i): Sprite {
    this.atTile(tile);
    let list = this.indexed.get(family);
    if (!list) this.indexed.set(family, (list = []));
    let s = list[i];
    if (!s) {
      if (this.madeThisFrame >= MADE_A_FRAME) {
        const stand = list[spare] ?? list.find((x) => x !== undefined);
        if (stand) return stand;
      }
      s = list[i] = this.make(w, h, draw);
    }
    return s;
  }

  /** Call at the start of each frame: the count of sprites made in it starts again. */
  nextFrame() {
    this.madeThisFrame = 0;
  }

  private atTile(tile: number) {
    if (tile !== this.tile || this.made > MAX_SPRITES) {
      this.sprites.clear();
      this.indexed.clear();
      this.made = 0;
      this.tile = tile;
    }
  }

  /**
   * Draw into the scratch canvas and keep only the pixels drawn: a sprite's box has room for
   * every pose and weapon, and a frame blends hundreds of them.
   */
  private make(w: number, h: number, draw: (ctx: CanvasRenderingContext2D) => void): Sprite {
    this.made++;
    this.madeThisFrame++;
    const ctx = (this.scratch ??= document.createElement("canvas").getContext("2d", { willReadFrequently: true })!);
    const c = ctx.canvas;
    c.width = Math.max(1, Math.ceil(w));
    c.height = Math.max(1, Math.ceil(h));
    draw(ctx);

    // The drawing may have widened its canvas (a label's text); the box is what it ended as.
    const W = c.width;
    const H = c.height;
    const img = ctx.getImageData(0, 0, W, H);
    const data = img.data;
    let x0 = W;
    let y0 = H;
    let x1 = -1;
    let y1 = -1;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        if (data[(y * W + x) * 4 + 3] === 0) continue;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        y1 = y;
      }
    }
    if (x1 < 0) return { src: null, ox: 0, oy: 0, width: W, height: H };
    const cropped = new OffscreenCanvas(x1 - x0 + 1, y1 - y0 + 1);
    cropped.getContext("2d")!.putImageData(img, -x0, -y0, x0, y0, cropped.width, cropped.height);
    // An image bitmap never changes: drawing it needs no snapshot of a canvas.
    return { src: cropped.transferToImageBitmap(), ox: x0, oy: y0, width: W, height: H };
  }
}

/** Draw `s` with the top-left corner of the box it was drawn in at (x, y). */
export function drawSprite(ctx: CanvasRenderingContext2D, s: Sprite, x: number, y: number) {
  if (s.src) ctx.drawImage(s.src, x + s.ox, y + s.oy);
}

// ---- Figures ----

/** The eight facings, as unit steps on the map (x east, z north): 0 = south, clockwise. */
export const FACINGS: ReadonlyArray<readonly [number, number]> = [
  [0, -1],
  [-1, -1],
  [-1, 0],
  [-1, 1],
  [0, 1],
  [1, 1],
  [1, 0],
  [1, -1],
];

/** The facing of a step (dx east, dz north). */
export function facingOf(dx: number, dz: number, fallback: number): number {
  if (dx === 0 && dz === 0) return fallback;
  const sx = Math.sign(dx);
  const sz = Math.sign(dz);
  const i = FACINGS.findIndex(([x, z]) => x === sx && z === sz);
  return i < 0 ? fallback : i;
}

/** The size of a figure's sprite at `t` px per tile: a tile and a half wide, two tiles high; its feet at (w/2, h - t/4). */
export function figureSize(t: number) {
  return { w: Math.ceil(t * 1.6), h: Math.ceil(t * 2.3) };
}

/**
 * Draw a figure facing `facing` (0..7, 0 = south, towards the viewer), `step` 0 or 1 of its walk,
 * its arms in `pose` (poses.ts; a biped's, the animals stand) at `phase` 0 or 1.
 */
export function drawFigure(ctx: CanvasRenderingContext2D, look: Look, facing: number, step: number, t: number, pose: Pose = "stand", phase = 0) {
  const { w, h } = figureSize(t);
  const s = (look.scale ?? 1) * t * 1.2;
  const fx = w / 2;
  const fy = h - t / 4;
  // Shadow, with a wedge on the ground showing where it faces.
  const [dx, dz] = FACINGS[facing]!;
  ctx.fillStyle = "rgba(0,0,0,0.28)";
  ctx.beginPath();
  ctx.ellipse(fx, fy, s * 0.34, s * 0.14, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = "rgba(255,255,255,0.35)";
  ctx.beginPath();
  const len = Math.hypot(dx, dz);
  const ux = dx / len;
  const uy = -dz / len;
  ctx.moveTo(fx + ux * s * 0.5, fy + uy * s * 0.22);
  ctx.lineTo(fx - uy * s * 0.12 + ux * s * 0.28, fy + ux * s * 0.06 + uy * s * 0.1);
  ctx.lineTo(fx + uy * s * 0.12 + ux * s * 0.28, fy - ux * s * 0.06 + uy * s * 0.1);
  ctx.fill();
  switch (look.body) {
    case "chicken":
      return drawChicken(ctx, look, fx, fy, s, ux, step);
    case "cow":
      return drawCow(ctx, look, fx, fy, s, ux, uy, step);
    default:
      return drawBiped(ctx, look, fx, fy, s, ux, uy, step, pose, phase);
  }
}

function drawBiped(
  ctx: CanvasRenderingContext2D,
  look: Look,
  fx: number,
  fy: number,
  s: number,
  ux: number,
  uy: number,
  step: number,
  pose: Pose,
  phase: number,
) {
  const goblin = look.body === "goblin";
  const troll = look.body === "troll";
  const away = uy < -0.3; // facing north: its back to the viewer
  const side = Math.abs(ux) > 0.3 ? Math.sign(ux) : 0;
  const legH = s * 0.36;
  const bodyH = s * 0.42;
  const bodyW = s * (troll ? 0.5 : 0.34);
  const headR = s * (goblin ? 0.15 : 0.13);
  const top = fy - legH - bodyH;
  // Legs, apart on the step of a walk.
  const spread = step ? s * 0.08 : 0;
  ctx.fillStyle = look.legs;
  if (look.robe) {
    ctx.beginPath();
    ctx.moveTo(fx - bodyW / 2, fy - legH);
    ctx.lineTo(fx + bodyW / 2, fy - legH);
    ctx.lineTo(fx + bodyW / 2 + s * 0.05, fy - s * 0.04);
    ctx.lineTo(fx - bodyW / 2 - s * 0.05, fy - s * 0.04);
    ctx.fill();
  } else {
    ctx.fillRect(fx - bodyW / 2 + s * 0.02 - spread, fy - legH, bodyW * 0.38, legH - s * 0.02);
    ctx.fillRect(fx + bodyW / 2 - bodyW * 0.38 - s * 0.02 + spread, fy - legH, bodyW * 0.38, legH - s * 0.02);
  }
  // Body.
  ctx.fillStyle = look.shirt;
  roundRect(ctx, fx - bodyW / 2, top, bodyW, bodyH, s * 0.08);
  ctx.fill();
  // Arms: at its sides, swinging with the walk, the weapon in the hand on the facing side (or the
  // right one); or posed for what it does.
  const hand = side || 1;
  if (pose === "stand") {
    ctx.fillStyle = look.skin;
    const armSwing = step ? s * 0.06 : -s * 0.02;
    ctx.fillRect(fx - bodyW / 2 - s * 0.08, top + s * 0.05 + armSwing, s * 0.08, bodyH * 0.75);
    ctx.fillRect(fx + bodyW / 2, top + s * 0.05 - armSwing, s * 0.08, bodyH * 0.75);
    drawWeapon(ctx, look.weapon, fx + hand * (bodyW / 2 + s * 0.04), top + bodyH * 0.7, s);
  } else drawPosedArms(ctx, look, pose, phase, { fx, top, bodyW, bodyH, s, hand }, drawWeapon);
  // Head.
  const hy0 = top - headR * 0.8;
  ctx.fillStyle = look.skin;
  ctx.beginPath();
  ctx.arc(fx, hy0, headR, 0, Math.PI * 2);
  ctx.fill();
  if (goblin) {
    // Pointed ears.
    ctx.beginPath();
    ctx.moveTo(fx - headR, hy0);
    ctx.lineTo(fx - headR * 1.9, hy0 - headR * 0.6);
    ctx.lineTo(fx - headR * 0.7, hy0 - headR * 0.4);
    ctx.moveTo(fx + headR, hy0);
    ctx.lineTo(fx + headR * 1.9, hy0 - headR * 0.6);
    ctx.lineTo(fx + headR * 0.7, hy0 - headR * 0.4);
    ctx.fill();
  }
  // Hair or headgear, then the face unless it faces away.
  const hatColour = look.hatColour ?? "#3a2414";
  ctx.fillStyle = hatColour;
  switch (look.hat) {
    case "helm":
      ctx.beginPath();
      ctx.arc(fx, hy0, headR * 1.08, Math.PI, 0);
      ctx.fill();
      ctx.fillRect(fx - headR * 0.15, hy0 - headR * 1.3, headR * 0.3, headR * 0.4);
      break;
    case "hood":
      ctx.beginPath();
      ctx.arc(fx, hy0, headR * 1.2, Math.PI * 0.9, Math.PI * 2.1);
      ctx.fill();
      if (away) {
        ctx.beginPath();
        ctx.arc(fx, hy0, headR * 1.15, 0, Math.PI * 2);
        ctx.fill();
      }
      break;
    case "cap":
      ctx.fillRect(fx - headR * 1.1, hy0 - headR * 1.0, headR * 2.2, headR * 0.55);
      ctx.fillRect(fx - headR * 0.8, hy0 - headR * 1.5, headR * 1.6, headR * 0.6);
      break;
    case "hair":
      ctx.beginPath();
      ctx.arc(fx, hy0 - headR * 0.1, headR * 1.02, Math.PI * 1.05, Math.PI * 1.95);
      ctx.fill();
      if (away) {
        ctx.beginPath();
        ctx.arc(fx, hy0, headR, 0, Math.PI * 2);
        ctx.fill();
      }
      break;
  }
  if (!away) {
    ctx.fillStyle = goblin ? "#f0e040" : "#1a1a1a";
    const ex = side * headR * 0.45;
    const eyes = side === 0 ? [-headR * 0.38, headR * 0.38] : [ex];
    for (const e of eyes) ctx.fillRect(fx + e - 1, hy0 - headR * 0.1, Math.max(1.5, s * 0.035), Math.max(1.5, s * 0.035));
  }
}

function drawWeapon(ctx: CanvasRenderingContext2D, weapon: Look["weapon"], hx: number, hy: number, s: number) {
  if (!weapon || weapon === "none") return;
  ctx.lineCap = "round";
  if (weapon === "spear") {
    ctx.strokeStyle = "#7a5a32";
    ctx.lineWidth = Math.max(1.5, s * 0.04);
    ctx.beginPath();
    ctx.moveTo(hx, hy + s * 0.15);
    ctx.lineTo(hx, hy - s * 0.75);
    ctx.stroke();
    ctx.fillStyle = "#c8ccd0";
    ctx.beginPath();
    ctx.moveTo(hx - s * 0.05, hy - s * 0.72);
    ctx.lineTo(hx, hy - s * 0.88);
    ctx.lineTo(hx + s * 0.05, hy - s * 0.72);
    ctx.fill();
  } else if (weapon === "bow") {
    ctx.strokeStyle = "#8a5a2a";
    ctx.lineWidth = Math.max(1.5, s * 0.04);
    ctx.beginPath();
    ctx.arc(hx, hy - s * 0.1, s * 0.28, -Math.PI / 2.2, Math.PI / 2.2);
    ctx.stroke();
    ctx.strokeStyle = "#ddd";
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(hx + s * 0.05, hy - s * 0.36);
    ctx.lineTo(hx + s * 0.05, hy + s * 0.16);
    ctx.stroke();
  } else if (weapon === "staff") {
    ctx.strokeStyle = "#5a3a1a";
    ctx.lineWidth = Math.max(1.5, s * 0.045);
    ctx.beginPath();
    ctx.moveTo(hx, hy + s * 0.2);
    ctx.lineTo(hx, hy - s * 0.65);
    ctx.stroke();
    ctx.fillStyle = "#7ad0ff";
    ctx.beginPath();
    ctx.arc(hx, hy - s * 0.68, s * 0.06, 0, Math.PI * 2);
    ctx.fill();
  } else if (weapon === "sword") {
    ctx.strokeStyle = "#d0d4d8";
    ctx.lineWidth = Math.max(1.5, s * 0.05);
    ctx.beginPath();
    ctx.moveTo(hx, hy);
    ctx.lineTo(hx, hy - s * 0.45);
    ctx.stroke();
    ctx.fillStyle = "#7a5a2a";
    ctx.fillRect(hx - s * 0.08, hy - s * 0.03, s * 0.16, s * 0.05);
  }
}

function drawChicken(ctx: CanvasRenderingContext2D, look: Look, fx: number, fy: number, s: number, ux: number, step: number) {
  const dir = ux < -0.3 ? -1 : 1;
  const by = fy - s * 0.35 - (step ? s * 0.03 : 0);
  ctx.fillStyle = look.skin;
  ctx.beginPath();
  ctx.ellipse(fx, by, s * 0.3, s * 0.24, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.beginPath();
  ctx.arc(fx + dir * s * 0.24, by - s * 0.22, s * 0.13, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = look.shirt;
  ctx.fillRect(fx + dir * s * 0.2, by - s * 0.4, s * 0.08, s * 0.08);
  ctx.fillStyle = look.legs;
  ctx.beginPath();
  ctx.moveTo(fx + dir * s * 0.35, by - s * 0.25);
  ctx.lineTo(fx + dir * s * 0.48, by - s * 0.2);
  ctx.lineTo(fx + dir * s * 0.35, by - s * 0.16);
  ctx.fill();
  ctx.fillRect(fx - s * 0.08, by + s * 0.2, s * 0.04, s * 0.14);
  ctx.fillRect(fx + s * 0.05, by + s * 0.2, s * 0.04, s * 0.14);
  ctx.fillStyle = "#111";
  ctx.fillRect(fx + dir * s * 0.28, by - s * 0.25, 1.5, 1.5);
}

function drawCow(ctx: CanvasRenderingContext2D, look: Look, fx: number, fy: number, s: number, ux: number, uy: number, step: number) {
  const sideways = Math.abs(ux) > 0.3;
  const dir = ux < 0 ? -1 : 1;
  const by = fy - s * 0.45;
  const bw = sideways ? s * 0.8 : s * 0.45;
  ctx.fillStyle = look.skin;
  ctx.fillRect(fx - bw / 2 + s * 0.04, by + s * 0.15, s * 0.08, s * 0.28 - (step ? s * 0.04 : 0));
  ctx.fillRect(fx + bw / 2 - s * 0.12, by + s * 0.15, s * 0.08, s * 0.28 - (step ? 0 : s * 0.04));
  roundRect(ctx, fx - bw / 2, by - s * 0.2, bw, s * 0.4, s * 0.12);
  ctx.fill();
  ctx.fillStyle = look.shirt;
  ctx.beginPath();
  ctx.arc(fx - bw * 0.15, by - s * 0.05, s * 0.1, 0, Math.PI * 2);
  ctx.arc(fx + bw * 0.2, by + s * 0.05, s * 0.07, 0, Math.PI * 2);
  ctx.fill();
  // The head: at the front when side-on, over the body facing the viewer, hidden facing away.
  if (uy < -0.3 && !sideways) return;
  const hx = sideways ? fx + dir * bw * 0.55 : fx;
  const hy = sideways ? by - s * 0.15 : by - s * 0.05;
  ctx.fillStyle = look.skin;
  ctx.beginPath();
  ctx.ellipse(hx, hy, s * 0.14, s * 0.16, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = look.legs;
  ctx.beginPath();
  ctx.ellipse(hx + (sideways ? dir * s * 0.06 : 0), hy + s * 0.1, s * 0.1, s * 0.06, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = "#ddd";
  ctx.fillRect(hx - s * 0.16, hy - s * 0.2, s * 0.06, s * 0.06);
  ctx.fillRect(hx + s * 0.1, hy - s * 0.2, s * 0.06, s * 0.06);
}

function roundRect(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

// ---- Things on the ground ----

const ORE_COLOURS: Record<string, string> = {
  copper: "#c8783a",
  tin: "#c8c8c0",
  iron: "#8a5a4a",
  coal: "#222",
  runestone: "#e8e8f8",
  silver: "#e0e0e8",
  gold: "#e8c030",
  mithril: "#4a5fa0",
};

/** The sprite size of a thing on a tile: a tile and a half each way, the tile's centre at its middle-bottom third. */
export function thingSize(t: number) {
  return { w: Math.ceil(t * 1.6), h: Math.ceil(t * 2) };
}

/** Where a tile's centre falls in a thing's sprite (of `size`, a thing's unless told). */
export function thingAnchor(t: number, size = thingSize(t)) {
  return { x: size.w / 2, y: size.h - t * 0.6 };
}

const TREE_SCALE = 1.3;

/** The sprite size of a resource: a standing tree's is larger than other things'. */
export function resourceSize(skill: string, depleted: boolean, t: number) {
  return skill === "woodcutting" && !depleted ? { w: Math.ceil(t * 2.1), h: Math.ceil(t * 2.7) } : thingSize(t);
}

/** A tree (by kind: plain, oak, willow), a stump, a rock (by ore), a depleted rock, a fishing spot, a fire. */
export function drawResource(ctx: CanvasRenderingContext2D, resourceId: string, skill: string, depleted: boolean, t: number, phase = 0) {
  const { x: cx, y: cy } = thingAnchor(t, resourceSize(skill, depleted, t));
  if (skill === "woodcutting") {
    if (depleted) {
      ctx.fillStyle = "#6b4a2a";
      ctx.beginPath();
      ctx.ellipse(cx, cy, t * 0.3, t * 0.16, 0, 0, Math.PI * 2);
      ctx.fill();
      ctx.fillRect(cx - t * 0.3, cy - t * 0.15, t * 0.6, t * 0.15);
      ctx.fillStyle = "#c8a46a";
      ctx.beginPath();
      ctx.ellipse(cx, cy - t * 0.15, t * 0.3, t * 0.14, 0, 0, Math.PI * 2);
      ctx.fill();
      ctx.strokeStyle = "#8a6a3a";
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.ellipse(cx, cy - t * 0.15, t * 0.15, t * 0.07, 0, 0, Math.PI * 2);
      ctx.stroke();
      return;
    }
    // A standing tree is taller than a tile's things: drawn at 1.3 times their size.
    const u = t * TREE_SCALE;
    const oak = resourceId.includes("oak");
    const willow = resourceId.includes("willow");
    ctx.fillStyle = "rgba(0,0,0,0.28)";
    ctx.beginPath();
    ctx.ellipse(cx + u * 0.08, cy + u * 0.1, u * (oak ? 0.62 : 0.52), u * 0.2, 0, 0, Math.PI * 2);
    ctx.fill();
    // The trunk, wider at its roots, with a lit side.
    const tw = u * (oak ? 0.13 : 0.1);
    ctx.fillStyle = "#5a3a1e";
    ctx.beginPath();
    ctx.moveTo(cx - tw * 1.9, cy + u * 0.1);
    ctx.lineTo(cx - tw, cy - u * 0.05);
    ctx.lineTo(cx - tw, cy - u * 0.55);
    ctx.lineTo(cx + tw, cy - u * 0.55);
    ctx.lineTo(cx + tw, cy - u * 0.05);
    ctx.lineTo(cx + tw * 1.9, cy + u * 0.1);
    ctx.closePath();
    ctx.fill();
    ctx.fillStyle = "#7a5430";
    ctx.fillRect(cx - tw, cy - u * 0.55, tw * 0.7, u * 0.6);
    const dark = willow ? "#3f6a24" : oak ? "#1d4a16" : "#24561b";
    const leaf = willow ? "#6a9a3a" : oak ? "#2f6a22" : "#3a7f2a";
    const light = willow ? "#9aca5a" : oak ? "#4f9236" : "#5eaa40";
    const r = u * (oak ? 0.62 : 0.5);
    const top = cy - u * (oak ? 1.0 : 0.95);
    if (willow) {
      // Long strands hanging from a low crown.
      ctx.fillStyle = dark;
      ctx.beginPath();
      ctx.ellipse(cx, top, u * 0.5, u * 0.3, 0, 0, Math.PI * 2);
      ctx.fill();
      ctx.lineCap = "round";
      for (let k = -3; k <= 3; k++) {
        ctx.strokeStyle = k % 2 ? leaf : light;
        ctx.lineWidth = Math.max(2, u * 0.11);
        ctx.beginPath();
        ctx.moveTo(cx + k * u * 0.13, top - u * 0.1);
        ctx.quadraticCurveTo(cx + k * u * 0.19, top + u * 0.3, cx + k * u * 0.16, top + u * (0.6 - Math.abs(k) * 0.06));
        ctx.stroke();
      }
      return;
    }
    // A crown of leaf clusters: their shadowed undersides, then the leaves, then the sunlit tops.
    const clusters: Array<[number, number, number]> = [
      [-0.5, 0.3, 0.62],
      [0.5, 0.3, 0.62],
      [0, -0.15, 0.72],
      [-0.15, 0.45, 0.55],
    ];
    ctx.fillStyle = dark;
    ctx.beginPath();
    for (const [ox, oy, or] of clusters) {
      ctx.moveTo(cx + ox * r + or * r * 1.06, top + oy * r + r * 0.08);
      ctx.arc(cx + ox * r, top + oy * r + r * 0.08, or * r * 1.06, 0, Math.PI * 2);
    }
    ctx.fill();
    ctx.fillStyle = leaf;
    ctx.beginPath();
    for (const [ox, oy, or] of clusters) {
      ctx.moveTo(cx + ox * r + or * r, top + oy * r - r * 0.04);
      ctx.arc(cx + ox * r, top + oy * r - r * 0.04, or * r, 0, Math.PI * 2);
    }
    ctx.fill();
    ctx.fillStyle = light;
    ctx.beginPath();
    for (const [ox, oy, or] of [
      [-0.32, -0.3, 0.3],
      [0.28, 0.05, 0.22],
      [-0.6, 0.18, 0.18],
    ] as const) {
      ctx.moveTo(cx + ox * r + or * r, top + oy * r);
      ctx.arc(cx + ox * r, top + oy * r, or * r, 0, Math.PI * 2);
    }
    ctx.fill();
    if (oak) {
      // Acorns' gold flecks among the oak's leaves.
      ctx.fillStyle = "#b8902a";
      for (const [ox, oy] of [
        [0.35, 0.45],
        [-0.4, 0.55],
        [0.1, -0.45],
      ] as const)
        ctx.fillRect(cx + ox * r, top + oy * r, Math.max(1.5, u * 0.05), Math.max(1.5, u * 0.05));
    }
    return;
  }
  if (skill === "mining") {
    const ore = Object.keys(ORE_COLOURS).find((k) => resourceId.includes(k));
    ctx.fillStyle = "rgba(0,0,0,0.25)";
    ctx.beginPath();
    ctx.ellipse(cx, cy + t * 0.12, t * 0.5, t * 0.18, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = depleted ? "#6a6660" : "#7e7a72";
    ctx.beginPath();
    ctx.moveTo(cx - t * 0.48, cy + t * 0.12);
    ctx.lineTo(cx - t * 0.38, cy - t * 0.3);
    ctx.lineTo(cx - t * 0.05, cy - t * 0.5);
    ctx.lineTo(cx + t * 0.35, cy - t * 0.35);
    ctx.lineTo(cx + t * 0.5, cy + t * 0.12);
    ctx.closePath();
    ctx.fill();
    ctx.fillStyle = depleted ? "#7a766e" : "#969288";
    ctx.beginPath();
    ctx.moveTo(cx - t * 0.3, cy - t * 0.25);
    ctx.lineTo(cx - t * 0.05, cy - t * 0.45);
    ctx.lineTo(cx + t * 0.2, cy - t * 0.3);
    ctx.lineTo(cx, cy - t * 0.1);
    ctx.fill();
    if (!depleted) {
      ctx.fillStyle = ORE_COLOURS[ore ?? ""] ?? "#b0a070";
      for (const [ox, oy] of [
        [-0.22, -0.08],
        [0.12, -0.18],
        [0.25, 0.0],
        [-0.05, 0.02],
      ] as const) {
        ctx.beginPath();
        ctx.arc(cx + ox * t, cy + oy * t, t * 0.06, 0, Math.PI * 2);
        ctx.fill();
      }
    }
    return;
  }
  if (skill === "fishing") {
    // Ripples on the water, a little bubbling.
    ctx.strokeStyle = "rgba(230,245,255,0.85)";
    ctx.lineWidth = Math.max(1, t / 20);
    for (let k = 0; k < 3; k++) {
      const r = t * (0.12 + ((k * 0.14 + phase) % 0.42));
      ctx.beginPath();
      ctx.ellipse(cx, cy, r, r * 0.5, 0, 0, Math.PI * 2);
      ctx.stroke();
    }
    ctx.fillStyle = "#e8f6ff";
    ctx.beginPath();
    ctx.arc(cx + t * 0.12, cy - t * 0.06, t * 0.04, 0, Math.PI * 2);
    ctx.arc(cx - t * 0.1, cy + t * 0.04, t * 0.03, 0, Math.PI * 2);
    ctx.fill();
    return;
  }
  // A fire: its glow on the ground, logs crossed, three tongues of flame that flicker with the phase, sparks.
  const glow = ctx.createRadialGradient(cx, cy, t * 0.05, cx, cy, t * 0.78);
  glow.addColorStop(0, "rgba(255,190,80,0.55)");
  glow.addColorStop(1, "rgba(255,140,40,0)");
  ctx.fillStyle = glow;
  ctx.beginPath();
  ctx.ellipse(cx, cy, t * 0.78, t * 0.45, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.strokeStyle = "#4a2e16";
  ctx.lineWidth = Math.max(2, t / 7);
  ctx.lineCap = "round";
  ctx.beginPath();
  ctx.moveTo(cx - t * 0.34, cy + t * 0.12);
  ctx.lineTo(cx + t * 0.34, cy - t * 0.06);
  ctx.moveTo(cx - t * 0.34, cy - t * 0.06);
  ctx.lineTo(cx + t * 0.34, cy + t * 0.12);
  ctx.stroke();
  const flame = (dx: number, width: number, height: number, lean: number, fill: string) => {
    ctx.fillStyle = fill;
    ctx.beginPath();
    ctx.moveTo(cx + dx - width, cy + t * 0.02);
    ctx.quadraticCurveTo(cx + dx - width * 0.9, cy - height * 0.6, cx + dx + lean, cy - height);
    ctx.quadraticCurveTo(cx + dx + width * 0.9, cy - height * 0.55, cx + dx + width, cy + t * 0.02);
    ctx.closePath();
    ctx.fill();
  };
  const beat = phase * Math.PI * 2;
  const sway = (k: number) => Math.sin(beat + k) * t * 0.07;
  const rise = (k: number) => (1 + 0.12 * Math.sin(beat * 2 + k)) * t;
  flame(-t * 0.14, t * 0.16, rise(1) * 0.62, sway(1), "#e0461a");
  flame(t * 0.15, t * 0.15, rise(2) * 0.58, sway(2), "#e0461a");
  flame(0, t * 0.24, rise(0) * 0.95, sway(0), "#ff8a1f");
  flame(-t * 0.02, t * 0.14, rise(3) * 0.62, sway(3) * 0.6, "#ffc43a");
  flame(0, t * 0.07, rise(4) * 0.36, sway(4) * 0.4, "#fff2a8");
  ctx.fillStyle = "#ffd86a";
  for (let k = 0; k < 3; k++) {
    const up = ((phase + k / 3) % 1) * t * 0.9;
    ctx.fillRect(cx + Math.sin(k * 2.1 + beat) * t * 0.2, cy - t * 0.5 - up, Math.max(1.5, t / 18), Math.max(1.5, t / 18));
  }
}

/** A station: bank booth, range, furnace, anvil, prayer altar, market stall, runecrafting altar. */
export function drawStation(ctx: CanvasRenderingContext2D, type: string, runeType: string, t: number, phase = 0) {
  const { x: cx, y: cy } = thingAnchor(t);
  ctx.fillStyle = "rgba(0,0,0,0.25)";
  ctx.beginPath();
  ctx.ellipse(cx, cy + t * 0.15, t * 0.5, t * 0.18, 0, 0, Math.PI * 2);
  ctx.fill();
  switch (type) {
    case "bank":
      ctx.fillStyle = "#6a4a2a";
      ctx.fillRect(cx - t * 0.48, cy - t * 0.35, t * 0.96, t * 0.55);
      ctx.fillStyle = "#8a6a3a";
      ctx.fillRect(cx - t * 0.48, cy - t * 0.45, t * 0.96, t * 0.14);
      ctx.fillStyle = "#e8c84a";
      ctx.beginPath();
      ctx.arc(cx, cy - t * 0.1, t * 0.12, 0, Math.PI * 2);
      ctx.fill();
      ctx.fillStyle = "#a07a20";
      ctx.font = `bold ${Math.round(t * 0.18)}px sans-serif`;
      ctx.textAlign = "center";
      ctx.fillText("$", cx, cy - t * 0.04);
      return;
    case "range":
      ctx.fillStyle = "#3a3a3e";
      ctx.fillRect(cx - t * 0.42, cy - t * 0.45, t * 0.84, t * 0.62);
      ctx.fillStyle = "#55555a";
      ctx.fillRect(cx - t * 0.42, cy - t * 0.5, t * 0.84, t * 0.1);
      ctx.fillStyle = "#ff7a1f";
      ctx.fillRect(cx - t * 0.25, cy - t * 0.15, t * 0.5, t * 0.22);
      ctx.fillStyle = "#ffd04a";
      ctx.fillRect(cx - t * 0.15, cy - t * 0.05, t * 0.3, t * 0.1);
      return;
    case "furnace":
      ctx.fillStyle = "#7a5a4a";
      ctx.beginPath();
      ctx.moveTo(cx - t * 0.45, cy + t * 0.15);
      ctx.lineTo(cx - t * 0.35, cy - t * 0.7);
      ctx.lineTo(cx + t * 0.35, cy - t * 0.7);
      ctx.lineTo(cx + t * 0.45, cy + t * 0.15);
      ctx.fill();
      ctx.fillStyle = "#3a2a22";
      ctx.fillRect(cx - t * 0.15, cy - t * 0.95, t * 0.3, t * 0.3);
      ctx.fillStyle = phase > 0.5 ? "#ffb03a" : "#ff7a1f";
      ctx.beginPath();
      ctx.arc(cx, cy - t * 0.1, t * 0.18, Math.PI, 0);
      ctx.fillRect(cx - t * 0.18, cy - t * 0.1, t * 0.36, t * 0.2);
      ctx.fill();
      return;
    case "anvil":
      ctx.fillStyle = "#5a4a3a";
      ctx.fillRect(cx - t * 0.2, cy - t * 0.15, t * 0.4, t * 0.3);
      ctx.fillStyle = "#3e3e44";
      ctx.beginPath();
      ctx.moveTo(cx - t * 0.45, cy - t * 0.35);
      ctx.lineTo(cx + t * 0.3, cy - t * 0.35);
      ctx.lineTo(cx + t * 0.45, cy - t * 0.25);
      ctx.lineTo(cx + t * 0.2, cy - t * 0.15);
      ctx.lineTo(cx - t * 0.3, cy - t * 0.15);
      ctx.fill();
      ctx.fillStyle = "#6a6a72";
      ctx.fillRect(cx - t * 0.4, cy - t * 0.37, t * 0.7, t * 0.05);
      return;
    case "altar":
      ctx.fillStyle = "#b8b4a8";
      ctx.fillRect(cx - t * 0.45, cy - t * 0.3, t * 0.9, t * 0.4);
      ctx.fillStyle = "#d8d4c8";
      ctx.fillRect(cx - t * 0.5, cy - t * 0.38, t, t * 0.1);
      ctx.fillStyle = "#f0d060";
      ctx.beginPath();
      ctx.arc(cx, cy - t * 0.62, t * 0.14, 0, Math.PI * 2);
      ctx.fill();
      ctx.strokeStyle = "#f0d060";
      ctx.lineWidth = Math.max(1, t / 20);
      for (let k = 0; k < 8; k++) {
        const a = (k * Math.PI) / 4;
        ctx.beginPath();
        ctx.moveTo(cx + Math.cos(a) * t * 0.18, cy - t * 0.62 + Math.sin(a) * t * 0.18);
        ctx.lineTo(cx + Math.cos(a) * t * 0.28, cy - t * 0.62 + Math.sin(a) * t * 0.28);
        ctx.stroke();
      }
      return;
    case "thieving_stall":
      // A market stall: a wooden counter under a striped awning on two posts.
      ctx.fillStyle = "#6a4a2a";
      ctx.fillRect(cx - t * 0.42, cy - t * 0.6, t * 0.06, t * 0.75);
      ctx.fillRect(cx + t * 0.36, cy - t * 0.6, t * 0.06, t * 0.75);
      ctx.fillStyle = "#8a6a3a";
      ctx.fillRect(cx - t * 0.45, cy - t * 0.2, t * 0.9, t * 0.3);
      for (let k = 0; k < 5; k++) {
        ctx.fillStyle = k % 2 ? "#f0ece0" : "#c83a3a";
        ctx.fillRect(cx - t * 0.5 + k * t * 0.2, cy - t * 0.75, t * 0.2, t * 0.18);
      }
      ctx.fillStyle = "#9ab8c8";
      ctx.fillRect(cx - t * 0.3, cy - t * 0.28, t * 0.22, t * 0.08);
      ctx.fillRect(cx + t * 0.05, cy - t * 0.28, t * 0.22, t * 0.08);
      return;
    default: {
      // A runecrafting altar (or any other stone): a standing stone with its rune glowing.
      ctx.fillStyle = "#8a8a94";
      ctx.beginPath();
      ctx.moveTo(cx - t * 0.3, cy + t * 0.15);
      ctx.lineTo(cx - t * 0.22, cy - t * 0.9);
      ctx.lineTo(cx + t * 0.05, cy - t * 1.05);
      ctx.lineTo(cx + t * 0.28, cy - t * 0.85);
      ctx.lineTo(cx + t * 0.32, cy + t * 0.15);
      ctx.fill();
      const glow = { air: "#e8f4ff", water: "#5ab0ff", earth: "#8a6a3a", fire: "#ff6a2a" }[runeType] ?? "#c0a0ff";
      ctx.fillStyle = glow;
      ctx.globalAlpha = 0.6 + phase * 0.4;
      ctx.beginPath();
      ctx.arc(cx, cy - t * 0.45, t * 0.14, 0, Math.PI * 2);
      ctx.fill();
      ctx.globalAlpha = 1;
    }
  }
}

/** A label: text with a dark outline, as one sprite. */
export function labelSprite(cache: SpriteCache, text: string, colour: string, t: number, size = 11): Sprite {
  const font = `bold ${size}px system-ui, sans-serif`;
  const width = Math.ceil(text.length * size * 0.62) + 6;
  return cache.get(`label:${colour}:${size}:${text}`, t, width, size + 6, (ctx) => {
    ctx.font = font;
    const w = Math.ceil(ctx.measureText(text).width) + 6;
    if (w > ctx.canvas.width) {
      ctx.canvas.width = w;
      ctx.font = font;
    }
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.lineWidth = 3;
    ctx.strokeStyle = "rgba(0,0,0,0.85)";
    ctx.strokeText(text, ctx.canvas.width / 2, (size + 6) / 2);
    ctx.fillStyle = colour;
    ctx.fillText(text, ctx.canvas.width / 2, (size + 6) / 2);
  });
}
