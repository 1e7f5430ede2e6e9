/**
 * What a figure does with its arms: a pose for each action a player is busy with (chopping,
 * mining, fishing, working at a station, praying, reaching) and for each style of blow, in two
 * phases that alternate while the action lasts. Drawn by sprites.ts in place of the arms at rest;
 * a death is drawn by the view (the standing sprite falling and fading).
 */

import { FEATURE_ACTIONS } from "../../../src/protocol/featureMessages.js";
import type { Look } from "./looks.js";

export const POSES = ["stand", "chop", "mine", "fish", "work", "pray", "reach", "guard", "swing", "cast", "shoot"] as const;
export type Pose = (typeof POSES)[number];
/** Each pose's place in POSES (a sprite's number among its figure's). */
export const POSE_INDEX = Object.fromEntries(POSES.map((p, i) => [p, i])) as Record<Pose, number>;

/** How long each of a busy pose's two phases lasts (ms). */
export const PHASE_MS = 320;

/**
 * The pose of `world:update`'s `action` (PlayerView): a resource's skill, "combat", a recipe's
 * skill, a feature's name, "pray", "pickup" or "talk". Anything else stands.
 */
const POSE_OF_ACTION: Readonly<Record<string, Pose>> = {
  woodcutting: "chop",
  mining: "mine",
  fishing: "fish",
  cooking: "work",
  firemaking: "work",
  smithing: "work",
  crafting: "work",
  fletching: "work",
  runecrafting: "pray",
  pray: "pray",
  pickup: "reach",
  combat: "guard",
  ...(FEATURE_ACTIONS as Readonly<Record<string, Pose>>),
};

export function poseOfAction(action: string): Pose {
  return POSE_OF_ACTION[action] ?? "stand";
}

/** The pose of a blow of each combat style (`combat:hit`'s `style`). */
export function poseOfBlow(style: "melee" | "ranged" | "magic"): Pose {
  return style === "ranged" ? "shoot" : style === "magic" ? "cast" : "swing";
}

/** Where a biped's arms hang from, as drawBiped measures it. */
export interface Frame {
  /** The middle of the figure and the top of its body (pixels in its sprite). */
  fx: number;
  top: number;
  bodyW: number;
  bodyH: number;
  /** The figure's size unit. */
  s: number;
  /** The side it works to: -1 west, 1 east (facing the viewer or away, its right hand). */
  hand: number;
}

type Tool = "axe" | "pick" | "rod" | "hammer" | "weapon" | "none";

/**
 * Each pose's arms: the angle from hanging straight down towards the working side (radians) of
 * the arm that holds the tool and of the other, in each phase, and what it holds: along the arm,
 * or at `hold` radians from upright towards the working side.
 */
interface Arms {
  tool: Tool;
  front: [number, number];
  back: [number, number];
  /** Both hands on the tool: the other arm from the near side of the body. */
  both?: boolean;
  hold?: [number, number];
}

const ARMS: Readonly<Record<Exclude<Pose, "stand">, Arms>> = {
  chop: { tool: "axe", front: [2.5, 1.35], back: [2.3, 1.25], both: true },
  mine: { tool: "pick", front: [2.8, 1.0], back: [2.6, 0.9], both: true },
  fish: { tool: "rod", front: [1.15, 1.3], back: [0.9, 1.0] },
  work: { tool: "hammer", front: [1.9, 0.9], back: [1.0, 1.1] },
  pray: { tool: "none", front: [2.6, 2.8], back: [-2.6, -2.8] },
  reach: { tool: "none", front: [1.45, 1.6], back: [-0.1, -0.1] },
  guard: { tool: "weapon", front: [0.75, 0.85], back: [-0.2, -0.15], hold: [0.35, 0.45] },
  swing: { tool: "weapon", front: [2.6, 1.2], back: [-0.5, 0.4] },
  cast: { tool: "none", front: [1.2, 1.5], back: [1.0, 1.4], both: true },
  shoot: { tool: "weapon", front: [1.57, 1.57], back: [1.3, 0.9], both: true },
};

/** Draw the arms (and what they hold) of a biped in `pose`, phase 0 or 1. */
export function drawPosedArms(
  ctx: CanvasRenderingContext2D,
  look: Look,
  pose: Exclude<Pose, "stand">,
  phase: number,
  f: Frame,
  drawWeapon: (ctx: CanvasRenderingContext2D, weapon: Look["weapon"], hx: number, hy: number, s: number) => void,
) {
  const arms = ARMS[pose];
  const p = phase ? 1 : 0;
  const { fx, top, bodyW, bodyH, s, hand } = f;
  const len = bodyH * 0.75;
  const w = s * 0.08;
  const shoulderY = top + s * 0.06;
  const frontX = fx + hand * (bodyW / 2 + w / 2);
  // The other arm hangs from the other shoulder, or from the same side when both hands hold the tool.
  const backX = arms.both ? fx + hand * (bodyW / 2 - w / 2) : fx - hand * (bodyW / 2 + w / 2);
  ctx.fillStyle = look.skin;
  armAt(ctx, backX, shoulderY, hand * arms.back[p], len, w);
  const a = arms.front[p];
  const hx = frontX + hand * Math.sin(a) * len;
  const hy = shoulderY + Math.cos(a) * len;
  ctx.save();
  ctx.translate(hx, hy);
  if (pose === "shoot") {
    // A bow held upright at arm's length (whoever shoots holds one), the arrow loosed in phase 1.
    ctx.scale(hand, 1);
    drawWeapon(ctx, "bow", 0, s * 0.1, s);
    if (p === 1) arrow(ctx, s);
  } else {
    // What it holds points on from the hand along the arm (rotated from upright by hand·(π − a)), or as it is held.
    ctx.rotate(hand * (arms.hold ? arms.hold[p] : Math.PI - a));
    if (arms.tool === "weapon") drawWeapon(ctx, look.weapon, 0, s * 0.05, s);
    else if (arms.tool !== "none") drawTool(ctx, arms.tool, s, p);
  }
  ctx.restore();
  ctx.fillStyle = look.skin;
  armAt(ctx, frontX, shoulderY, hand * a, len, w);
  if (pose === "cast" && p === 1) glow(ctx, hx, hy, s);
  if (pose === "pray" && p === 1) glow(ctx, fx, top - s * 0.42, s * 0.8);
}

/** An arm from the shoulder (x, y) at `a` radians from hanging down, positive towards east. */
function armAt(ctx: CanvasRenderingContext2D, x: number, y: number, a: number, len: number, w: number) {
  ctx.save();
  ctx.translate(x, y);
  ctx.rotate(-a);
  ctx.fillRect(-w / 2, 0, w, len);
  ctx.restore();
}

/** A tool held at the origin, pointing up (-y). */
function drawTool(ctx: CanvasRenderingContext2D, tool: Exclude<Tool, "weapon" | "none">, s: number, phase: number) {
  ctx.lineCap = "round";
  ctx.strokeStyle = "#7a5a32";
  ctx.lineWidth = Math.max(1.5, s * 0.045);
  const handle = tool === "rod" ? s * 0.85 : tool === "hammer" ? s * 0.22 : s * 0.36;
  ctx.beginPath();
  ctx.moveTo(0, s * 0.04);
  ctx.lineTo(0, -handle);
  ctx.stroke();
  ctx.fillStyle = "#b8bec6";
  if (tool === "axe") {
    ctx.beginPath();
    ctx.moveTo(0, -handle + s * 0.02);
    ctx.lineTo(s * 0.16, -handle - s * 0.06);
    ctx.lineTo(s * 0.16, -handle + s * 0.14);
    ctx.closePath();
    ctx.fill();
  } else if (tool === "pick") {
    ctx.strokeStyle = "#9aa2ac";
    ctx.lineWidth = Math.max(1.5, s * 0.05);
    ctx.beginPath();
    ctx.moveTo(-s * 0.2, -handle + s * 0.08);
    ctx.quadraticCurveTo(0, -handle - s * 0.06, s * 0.2, -handle + s * 0.08);
    ctx.stroke();
  } else if (tool === "hammer") {
    ctx.fillStyle = "#6a6e74";
    ctx.fillRect(-s * 0.08, -handle - s * 0.06, s * 0.16, s * 0.1);
  } else {
    // A line from the rod's tip, swaying with the phase.
    ctx.strokeStyle = "rgba(235,235,235,0.85)";
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(0, -handle);
    ctx.lineTo(s * (phase ? 0.12 : 0.06), -handle + s * 0.5);
    ctx.stroke();
  }
}

/** An arrow leaving the bow, in the bow's frame (the bow's middle at the origin, shooting towards +x). */
function arrow(ctx: CanvasRenderingContext2D, s: number) {
  ctx.strokeStyle = "#e8d8b0";
  ctx.lineWidth = Math.max(1, s * 0.03);
  ctx.beginPath();
  ctx.moveTo(-s * 0.05, 0);
  ctx.lineTo(s * 0.45, 0);
  ctx.stroke();
}

/** A spell's light in the hands or over the head. */
function glow(ctx: CanvasRenderingContext2D, x: number, y: number, s: number) {
  const g = ctx.createRadialGradient(x, y, 0, x, y, s * 0.18);
  g.addColorStop(0, "rgba(200,240,255,0.95)");
  g.addColorStop(1, "rgba(120,190,255,0)");
  ctx.fillStyle = g;
  ctx.beginPath();
  ctx.arc(x, y, s * 0.18, 0, Math.PI * 2);
  ctx.fill();
}
