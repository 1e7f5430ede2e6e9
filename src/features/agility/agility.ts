import { GameError } from "../../game/types.js";
import type { PlayerAction, PlayerEntity } from "../../game/world/entities.js";
import { killPlayer } from "../../game/world/npcSystem.js";
import { walkTowards } from "../../game/world/commands.js";
import { grantXp } from "../../game/world/xp.js";
import type { World } from "../../game/world/World.js";
import { playerOf } from "../../game/world/worldCore.js";
import { HEALTH_PER_LEVEL } from "../../game/skills.js";
import { coursesIn, obstacleOf, type Obstacle } from "./agilityCourses.js";

/**
 * Crossing an obstacle (`agility:cross {obstacleId}`): walk onto its start tile, take its ticks to
 * cross, then stand on its end tile with its xp, or fail (agilityFailChance) with its damage where
 * it started. A move or any other order before the end stops the crossing. Crossing a course's
 * obstacles in order, from its first to its last, completes a lap: the course's lapXp on top.
 */
export const AGILITY_VARS = {
  /** The next obstacle of a lap under way: course index x 1000 + obstacle index (0: none). Starts again at each login. */
  agilityLap: { initial: 0, min: 0, max: 1_000_000 },
};

type CrossAction = Extract<PlayerAction, { type: "feature" }>;

export function startCrossing(world: World, playerId: string, obstacleId: string) {
  const p = playerOf(world, playerId);
  const o = obstacleOf(world, obstacleId);
  if (!o) throw new GameError("UNKNOWN_TARGET", "There is no obstacle there");
  if (p.levels.agility < o.level) throw new GameError("LEVEL_TOO_LOW", `You need agility level ${o.level} to cross the ${o.name.toLowerCase()}`);
  walkTowards(world, p, o.from, true);
  p.action = { type: "feature", feature: "agility", targetId: o.stationId, step: 0, untilTick: 0 };
  world.markChanged("player", p.id);
}

/** The chance to fail an obstacle at a level: its failChance at its own level, none from its safeLevel (default: its level + 20). */
export function agilityFailChance(o: Pick<Obstacle, "level" | "failChance" | "safeLevel">, level: number): number {
  const safe = Math.max(o.level + 1, o.safeLevel ?? o.level + 20);
  if (level >= safe) return 0;
  return o.failChance * Math.min(1, (safe - level) / (safe - o.level));
}

export function tickCrossing(world: World, p: PlayerEntity, action: CrossAction) {
  const o = obstacleOf(world, action.targetId);
  if (!o) throw new GameError("CONTENT_CHANGED", "That obstacle is gone");
  if (action.step === 0) {
    if (p.path.length > 0) return;
    if (p.tile.x !== o.from.x || p.tile.z !== o.from.z) throw new GameError("TOO_FAR", `You can't reach the ${o.name.toLowerCase()}`);
    action.step = 1;
    action.untilTick = world.tick + o.ticks;
    world.markChanged("player", p.id);
    return;
  }
  if (world.tick < action.untilTick) return;
  p.action = null;
  world.markChanged("player", p.id);
  if (world.rng() < agilityFailChance(o, p.levels.agility)) {
    const damage = o.failDamage * HEALTH_PER_LEVEL;
    p.vars.agilityLap = 0;
    world.events.push({
      kind: "notice",
      playerId: p.id,
      code: "OBSTACLE_FAILED",
      message: `You slip on the ${o.name.toLowerCase()}${damage > 0 ? ` and hurt yourself (${damage})` : ""}`,
    });
    if (damage > 0) {
      p.health = Math.max(0, p.health - damage);
      world.touchPlayer(p, true);
      if (p.health <= 0) killPlayer(world, p, null);
    }
    return;
  }
  p.tile = { x: o.to.x, z: o.to.z };
  world.place("player", p.id, p.tile);
  world.touchPlayer(p, true);
  grantXp(world, p, "agility", o.xp);
  lapStep(world, p, o);
}

/** A lap: the course's obstacles crossed in order, from the first; the last gives the lap's xp. */
function lapStep(world: World, p: PlayerEntity, o: Obstacle) {
  const courses = coursesIn(world);
  const courseIndex = courses.findIndex((c) => c.id === o.courseId);
  const course = courses[courseIndex]!;
  const expected = o.index === 0 ? 0 : (p.vars.agilityLap as number) === courseIndex * 1000 + o.index ? o.index : -1;
  if (expected !== o.index) {
    p.vars.agilityLap = 0;
    return;
  }
  if (o.index < course.obstacles.length - 1) {
    p.vars.agilityLap = courseIndex * 1000 + o.index + 1;
    return;
  }
  p.vars.agilityLap = 0;
  if (course.lapXp > 0) grantXp(world, p, "agility", course.lapXp);
  world.events.push({ kind: "notice", playerId: p.id, code: "LAP_COMPLETE", message: `You complete a lap of the ${course.name}` });
}
