import { z } from "zod";
import { describeIssues } from "../../manifests/schemas.js";
import type { Tile } from "../../game/types.js";
import type { StationEntity } from "../../game/world/entities.js";
import type { World } from "../../game/world/World.js";

/**
 * The agility courses of a world: its `agility.json` manifest (optional; read from the game data's
 * files that no other part models), each course a list of obstacles crossed in order. An obstacle
 * stands at `position` (a station of type `agility_obstacle` every client sees), is entered from
 * `from` and crossed to `to` in `ticks` ticks, needs agility `level`, gives `xp`, and fails with
 * `failChance` at its own level, falling evenly to none at `safeLevel`: a failure costs
 * `failDamage` hitpoints and leaves the player where it started. A lap (every obstacle in order)
 * gives the course's `lapXp` on top. An obstacle that does not fit the schema, or whose tiles are
 * outside the map or blocked, is skipped with a warning in the log.
 */
const tile = z.object({ x: z.number().int(), z: z.number().int() }).loose();
const obstacleSchema = z
  .object({
    id: z.string().min(1),
    name: z.string().min(1),
    position: tile,
    from: tile,
    to: tile,
    level: z.number().int().min(1).max(99),
    xp: z.number().min(0).max(10_000),
    ticks: z.number().int().min(1).max(20).default(3),
    failChance: z.number().min(0).max(1).default(0),
    safeLevel: z.number().int().min(1).max(120).optional(),
    failDamage: z.number().int().min(0).max(99).default(0),
  })
  .loose();
const courseSchema = z
  .object({ id: z.string().min(1), name: z.string().min(1), lapXp: z.number().min(0).max(100_000).default(0), obstacles: z.array(z.unknown()) })
  .loose();
const fileSchema = z.object({ courses: z.array(z.unknown()) }).loose();

export type Obstacle = z.infer<typeof obstacleSchema> & { courseId: string; index: number; stationId: string };
export interface Course {
  id: string;
  name: string;
  lapXp: number;
  obstacles: Obstacle[];
}

/** The station type an obstacle is placed as. */
export const OBSTACLE_TYPE = "agility_obstacle";

/** The courses each world plays, read when it is populated. */
const coursesOf = new WeakMap<World, Course[]>();
const obstaclesOf = new WeakMap<World, Map<string, Obstacle>>();

export const obstacleOf = (world: World, stationId: string) => obstaclesOf.get(world)?.get(stationId);
export const coursesIn = (world: World) => coursesOf.get(world) ?? [];

/** WorldFeature.reloaded: the courses the new data gives. */
export function reloadCourses(world: World, scratch: World) {
  coursesOf.set(world, coursesIn(scratch));
  obstaclesOf.set(world, obstaclesOf.get(scratch) ?? new Map());
}

/** WorldFeature.populate: read the manifest, place each obstacle as a station. */
export function placeCourses(world: World) {
  const courses: Course[] = [];
  const byStation = new Map<string, Obstacle>();
  const warn = (message: string) => world.events.push({ kind: "contentWarning", message: `agility.json: ${message}; skipped` });
  const raw = world.data.extras["agility"];
  if (raw !== undefined) {
    const file = fileSchema.safeParse(raw);
    if (!file.success) warn("not an object with a courses list");
    for (const [i, c] of (file.success ? file.data.courses : []).entries()) {
      const course = courseSchema.safeParse(c);
      if (!course.success) {
        warn(`course ${i}: ${describeIssues(course.error)}`);
        continue;
      }
      const obstacles: Obstacle[] = [];
      for (const [j, o] of course.data.obstacles.entries()) {
        const parsed = obstacleSchema.safeParse(o);
        if (!parsed.success) {
          warn(`course ${course.data.id} obstacle ${j}: ${describeIssues(parsed.error)}`);
          continue;
        }
        const bad = (["from", "to"] as const).find((k) => !walkable(world, parsed.data[k]));
        if (bad) {
          warn(`course ${course.data.id} obstacle ${parsed.data.id}: its ${bad} tile is outside the map or blocked`);
          continue;
        }
        const stationId = `obstacle:${course.data.id}:${parsed.data.id}`;
        obstacles.push({ ...parsed.data, courseId: course.data.id, index: obstacles.length, stationId });
      }
      courses.push({ id: course.data.id, name: course.data.name, lapXp: course.data.lapXp, obstacles });
    }
  }
  for (const course of courses) {
    for (const o of course.obstacles) {
      const station: StationEntity = { id: o.stationId, type: OBSTACLE_TYPE, name: o.name, tile: { x: o.position.x, z: o.position.z } };
      world.stations.set(station.id, station);
      world.place("station", station.id, station.tile);
      byStation.set(station.id, o);
    }
  }
  coursesOf.set(world, courses);
  obstaclesOf.set(world, byStation);
}

const walkable = (world: World, t: Tile) => world.map.inBounds(t.x, t.z) && !world.map.isBlocked(t.x, t.z);
