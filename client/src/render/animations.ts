/**
 * What each figure is doing this frame: the pose of its action (poses.ts) in one of two phases,
 * a blow it struck a moment ago (from `combat:hit`), and the figures that died, which fall where
 * they stood and fade while the state has already moved them on (a dead npc, a respawned player).
 */

import { PHASE_MS, poseOfAction, poseOfBlow, type Pose } from "./poses.js";
import { hashOf, type Look } from "./looks.js";

/** A blow's pose lasts this long (ms): wound up in the first half, struck in the second. */
export const BLOW_MS = 450;
/** A dying figure falls over in this long, then lies fading until DIE_MS (ms). */
export const FALL_MS = 350;
export const DIE_MS = 1500;

/** A figure that died: where it fell (map tiles), its facing and look, and when. */
export interface Dying {
  kind: "npc" | "player";
  id: string;
  x: number;
  z: number;
  facing: number;
  look: Look;
  key: string;
  at: number;
}

export class Animations {
  private readonly blows = new Map<string, { pose: Pose; at: number }>();
  private readonly deaths = new Map<string, Dying>();
  private readonly dyingNow: Dying[] = [];

  /** `attackerId` struck a blow of `style` at `now`. */
  blow(attackerId: string, style: "melee" | "ranged" | "magic", now: number) {
    this.blows.set(attackerId, { pose: poseOfBlow(style), at: now });
  }

  /** A figure died (its health reached 0 at `d.at`). */
  died(d: Dying) {
    this.deaths.set(d.id, d);
    this.blows.delete(d.id);
  }

  /**
   * The pose and phase of figure `id` at `now`: a recent blow's, else its action's while it
   * stands still (a walking figure swings its arms instead).
   */
  poseOf(id: string, action: string, moving: boolean, now: number, out: { pose: Pose; phase: number }) {
    const b = this.blows.get(id);
    if (b) {
      const age = now - b.at;
      if (age < BLOW_MS) {
        out.pose = b.pose;
        out.phase = age < BLOW_MS / 2 ? 0 : 1;
        return out;
      }
      this.blows.delete(id);
    }
    out.pose = moving ? "stand" : poseOfAction(action);
    // Each figure keeps its own beat, so that a row of woodcutters does not chop as one.
    out.phase = out.pose === "stand" ? 0 : Math.floor((now + (hashOf(id) % (PHASE_MS * 2))) / PHASE_MS) % 2;
    return out;
  }

  /** Whether the live figure `id` at (x, z) is the one lying dead there (drawn as such instead). */
  lyingAt(id: string, x: number, z: number, now: number): boolean {
    const d = this.deaths.get(id);
    return d !== undefined && now - d.at < DIE_MS && Math.abs(d.x - x) < 2 && Math.abs(d.z - z) < 2;
  }

  /** The figures still falling or fading at `now` (a list reused from call to call). */
  dying(now: number): readonly Dying[] {
    const out = this.dyingNow;
    out.length = 0;
    for (const d of this.deaths.values()) {
      if (now - d.at >= DIE_MS) this.deaths.delete(d.id);
      else out.push(d);
    }
    return out;
  }
}

/** How far over a dying figure has fallen (0 standing to 1 lying) and how much of it shows. */
export function fallOf(d: Dying, now: number): { turn: number; alpha: number } {
  const age = now - d.at;
  const turn = Math.min(1, age / FALL_MS);
  const alpha = age < FALL_MS ? 1 : Math.max(0, 1 - (age - FALL_MS) / (DIE_MS - FALL_MS));
  return { turn, alpha };
}
