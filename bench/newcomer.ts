/**
 * A newcomer's first fight, scripted (test/helpers/newcomerFight.ts): the default world's Mudfoot
 * Menace asks a new character to drive off three goblins, right after The Warden's Letter gave it a
 * sword and a hatchet. This bench plays that fight --runs times over for each way of going, in the
 * world's own rules, tick by tick and without a clock, and prints what issue 50 asks a first fight
 * to be: the time each goblin took, from the order to attack to its fall (walking up to it
 * included; a tick is 0.6 s), and the lowest health the newcomer fell to (it eats at 40 %, as the
 * web client's hint says), with the shrimp it ate and the share of newcomers that met both goals
 * (health never under 30 %; every goblin down in under 60 s).
 *
 * The ways, side by side: the reward's sword wielded (as the hint says), the reward's iron hatchet
 * wielded instead (a hatchet swings every 5 ticks, a shortsword every 4), and nothing wielded.
 *
 * Usage: npm run bench:newcomer [-- --runs 500 --seed 1]
 */
import { defaultGameData } from "../test/helpers/server.js";
import { fightMudfoot, metGoals } from "../test/helpers/newcomerFight.js";
import { benchArgs } from "./args.js";
import { fmt, quantile, table } from "./stats.js";

const a = benchArgs("npm run bench:newcomer", { runs: "500", seed: "1" });
const runs = Number(a.runs);
const seed = Number(a.seed);
const data = await defaultGameData();

const ways: Array<[string, string | null]> = [
  ["the reward's bronze shortsword wielded (as the hint says)", "bronze_shortsword"],
  ["the reward's iron hatchet wielded instead", "iron_hatchet"],
  ["nothing wielded (the hint ignored)", null],
];
console.log(`Mudfoot Menace's three goblins, ${runs} newcomers a way (seeds ${seed}..${seed + runs - 1}); node ${process.version}`);
const rows: string[][] = [];
for (const [label, wield] of ways) {
  const results = Array.from({ length: runs }, (_, i) => fightMudfoot(data, seed + i, wield));
  const seconds = results.flatMap((r) => r.goblinSeconds).filter(Number.isFinite);
  const lowest = results.map((r) => r.lowestHealth * 100);
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
    `${fmt((results.filter(metGoals).length / runs) * 100, 1)} %`,
  ]);
}
console.log(table(["newcomer", "s/goblin p50", "p90", "max", "lowest health % p50", "p10", "min", "food eaten", "died", "met both goals"], rows));
