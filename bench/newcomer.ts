/**
 * A newcomer's first fight, scripted: the default world's Mudfoot Menace asks a new character to
 * drive off three goblins, right after The Warden's Letter gave it a sword and a hatchet. This bench plays
 * that fight many times over in the world's own rules (src/game/world, the default world's
 * manifests and features, one seeded dice per run), tick by tick and without a clock, and prints
 * what the issue asks a first fight to be: the time each goblin took, from the order to attack to
 * its fall (walking up to it included; a tick is 0.6 s), and the lowest health the newcomer fell to.
 *
 * The newcomer: a new character (default levels, the starter kit) with the quest's reward in the
 * pack, standing at the centre of Mudfoot Fields' first spawn of goblins. It does what the web
 * client's hints tell it: wields the reward's weapon (the first the quest gives: the bronze
 * shortsword), and eats a shrimp when its health is at 40 % or less. It attacks the nearest
 * goblin no one fights, and the next once that one falls. Three ways of going are set side by side:
 * the sword wielded (as the hint says), the reward's iron hatchet wielded instead (slower: a
 * hatchet swings every 5 ticks, a shortsword every 4), and nothing wielded (the hint ignored).
 *
 * Goals (issue 50): health never under 30 % of the maximum; every goblin down in under 60 s.
 *
 * Usage: npm run bench:newcomer [-- --runs 500 --seed 1]
 */
import { seededRng } from "../src/game/random.js";
import { startingInventory } from "../src/game/inventory.js";
import { defaultSkillXp, maxHealth, skillLevels } from "../src/game/skills.js";
import { startAttack } from "../src/game/world/commands.js";
import type { NpcEntity, PlayerEntity } from "../src/game/world/entities.js";
import { useItem } from "../src/game/world/itemUse.js";
import { addPlayer } from "../src/game/world/players.js";
import { tickWorld } from "../src/game/world/tick.js";
import type { World } from "../src/game/world/World.js";
import { WORLD_FEATURES } from "../src/features/index.js";
import { tileOf } from "../src/manifests/shapes.js";
import { createWorld } from "../rooms/worldSetup.js";
import { defaultGameData } from "../test/helpers/server.js";
import { benchArgs } from "./args.js";
import { fmt, quantile, table } from "./stats.js";

const a = benchArgs("npm run bench:newcomer", { runs: "500", seed: "1" });
const runs = Number(a.runs);
const seed = Number(a.seed);
const TICK_S = 0.6;
const GOBLINS = 3;
/** A goblin not down after this many ticks (5 minutes) ends the run as a failure. */
const GIVE_UP_TICKS = 500;
const EAT_AT = 0.4;

const data = await defaultGameData();
const fields = data.worldAreas.get("mudfoot_fields");
if (!fields) throw new Error("the default world has no mudfoot_fields");
const rewardItems = data.quests.get("the_wardens_letter")?.rewardItems ?? [];

type Wield = "bronze_shortsword" | "iron_hatchet" | null;

interface Run {
  goblinSeconds: number[];
  lowestHealth: number;
  eaten: number;
  died: boolean;
}

function newcomer(world: World, wield: Wield): PlayerEntity {
  const xp = defaultSkillXp();
  const kit = [...data.starterKit, ...rewardItems];
  // Where the goblins are: the fields' first spawn of them, the way in from town.
  const start = tileOf(fields!.mobSpawns.find((m) => m.mobId === "goblin")!.position);
  const p = addPlayer(world, {
    id: "newcomer",
    accountId: "newcomer",
    name: "Newcomer",
    isAgent: false,
    tile: start,
    xp,
    health: maxHealth(skillLevels(xp).constitution),
    inventory: startingInventory(kit, data.items),
    equipment: {},
    bank: [],
  });
  if (wield) useItem(world, p.id, { slot: p.inventory.findIndex((s) => s?.itemId === wield), action: "equip" });
  return p;
}

function nearestGoblin(world: World, p: PlayerEntity): NpcEntity | undefined {
  let best: NpcEntity | undefined;
  let bestD = Infinity;
  for (const n of world.npcs.values()) {
    if (n.defId !== "goblin" || n.deadUntilTick != null || n.target) continue;
    const d = Math.max(Math.abs(n.position.x - p.tile.x), Math.abs(n.position.z - p.tile.z));
    if (d < bestD) [best, bestD] = [n, d];
  }
  return best;
}

function fight(runSeed: number, wield: Wield): Run {
  let id = 0;
  const world = createWorld(data, { rng: seededRng(runSeed), newId: () => `e${++id}`, features: WORLD_FEATURES.list });
  const p = newcomer(world, wield);
  const max = maxHealth(p.levels.constitution);
  const run: Run = { goblinSeconds: [], lowestHealth: 1, eaten: 0, died: false };
  for (let g = 0; g < GOBLINS && !run.died; g++) {
    const goblin = nearestGoblin(world, p);
    if (!goblin) throw new Error("no goblin free to fight at Mudfoot Fields");
    startAttack(world, p.id, goblin.id);
    let ticks = 0;
    while (goblin.deadUntilTick == null) {
      tickWorld(world);
      world.events.drain();
      ticks++;
      if (p.health <= 0 || ticks > GIVE_UP_TICKS) {
        run.died = p.health <= 0;
        ticks = Infinity;
        break;
      }
      run.lowestHealth = Math.min(run.lowestHealth, p.health / max);
      const food = p.inventory.findIndex((s) => s !== null && (data.items.get(s.itemId)?.healAmount ?? 0) > 0);
      if (p.health <= max * EAT_AT && food >= 0) {
        useItem(world, p.id, { slot: food, action: "eat" });
        run.eaten++;
      }
    }
    run.goblinSeconds.push(ticks * TICK_S);
  }
  return run;
}

const ways: Array<[string, Wield]> = [
  ["the reward's bronze shortsword wielded (as the hint says)", "bronze_shortsword"],
  ["the reward's iron hatchet wielded instead", "iron_hatchet"],
  ["nothing wielded (the hint ignored)", null],
];
console.log(`Mudfoot Menace's three goblins, ${runs} newcomers a way (seeds ${seed}..${seed + runs - 1}); node ${process.version}`);
const rows: string[][] = [];
for (const [label, wield] of ways) {
  const results = Array.from({ length: runs }, (_, i) => fight(seed + i, wield));
  const seconds = results.flatMap((r) => r.goblinSeconds).filter(Number.isFinite);
  const lowest = results.map((r) => r.lowestHealth * 100);
  const met = results.filter((r) => !r.died && r.lowestHealth >= 0.3 && r.goblinSeconds.length === GOBLINS && r.goblinSeconds.every((s) => s < 60)).length;
  rows.push([
    label,
    fmt(quantile(seconds, 0.5)),
    fmt(quantile(seconds, 0.9)),
    fmt(Math.max(...seconds)),
    fmt(quantile(lowest, 0.5), 0),
    fmt(quantile(lowest, 0.1), 0),
    fmt(Math.min(...lowest), 0),
    fmt(results.reduce((s, r) => s + r.eaten, 0) / runs),
    String(results.filter((r) => r.died).length),
    `${fmt((met / runs) * 100, 1)} %`,
  ]);
}
console.log(table(["newcomer", "s/goblin p50", "p90", "max", "lowest health % p50", "p10", "min", "shrimp eaten", "died", "met both goals"], rows));
