/**
 * The page bench/clientDraw.ts measures, bundled by esbuild with the web client's own code: the
 * client's WorldView and Minimap over a made-up room state (no server) of `players` players and
 * `npcs` npcs standing in view around the player, half of them stepping to a next tile each tick
 * so that they slide, a sixth of the players standing at work (chopping, mining, fishing, cooking,
 * fighting, praying: their arms posed), blows of each style struck and some of them deadly (the
 * figure falling and fading), among trees, rocks, fishing spots, fires and stations. Each
 * animation frame draws the map and the minimap and flushes the canvas (a 1-pixel read), timed
 * together; the times are left on window.benchResult.
 */
import type { AreaInfo, Catalogue, WorldMap } from "../client/src/api.js";
import { Game } from "../client/src/game.js";
import { Minimap } from "../client/src/minimap.js";
import { GroundPlan } from "../client/src/render/ground.js";
import { TICK_MS } from "../src/protocol/vocabulary.js";
import { WorldView } from "../client/src/view.js";

interface BenchInput {
  map: WorldMap;
  catalogue: Catalogue;
  areas: AreaInfo[];
  players: number;
  npcs: number;
  warmup: number;
  frames: number;
}

const input = (window as unknown as { benchInput: BenchInput }).benchInput;
const centre = input.map.spawn ?? { x: 100, z: 100 };
// Within the view at the default zoom (28 px a tile on 720×528: ±12 by ±9 tiles).
const spread = { x: 11, z: 8 };
let seed = 1;
const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
const place = () => ({ x: centre.x + Math.round((random() * 2 - 1) * spread.x), z: centre.z + Math.round((random() * 2 - 1) * spread.z) });

const players = new Map<string, any>();
const npcs = new Map<string, any>();
const me = {
  id: "me",
  name: "Bencher",
  x: centre.x,
  z: centre.z,
  health: 100,
  maxHealth: 100,
  combatLevel: 3,
  action: "",
  moving: false,
  running: false,
  isAgent: false,
};
players.set("me", me);
/** What those at work do (PlayerView `action`), one in six players. */
const WORK = ["woodcutting", "mining", "fishing", "cooking", "combat", "pray"];
const working = (i: number) => i % 6 === 3;
for (let i = 1; i < input.players; i++) {
  const p = place();
  players.set(`p${i}`, {
    id: `p${i}`,
    name: `Player ${i}`,
    ...p,
    health: i % 7 ? 100 : 60,
    maxHealth: 100,
    combatLevel: 3 + (i % 60),
    action: working(i) ? WORK[Math.floor(i / 6) % WORK.length] : "",
    moving: false,
    running: false,
    isAgent: i % 10 === 0,
  });
}
const kinds = ["goblin", "chicken", "cow", "town_guard", "warden_holt", "bog_troll", "outlaw_bowman"];
for (let i = 0; i < input.npcs; i++) {
  const npcId = kinds[i % kinds.length]!;
  const info = input.catalogue.npcs.find((n) => n.id === npcId);
  npcs.set(`n${i}`, {
    id: `n${i}`,
    npcId,
    name: info?.name ?? npcId,
    ...place(),
    health: i % 5 ? 10 : 4,
    maxHealth: 10,
    level: info?.level ?? 2,
    state: i % 9 ? "idle" : "combat",
    targetId: "",
  });
}
const resources = new Map<string, any>();
const things: Array<[string, string, string]> = [
  ["tree_normal", "woodcutting", "Tree"],
  ["tree_oak", "woodcutting", "Oak"],
  ["tree_willow", "woodcutting", "Willow"],
  ["ore_copper", "mining", "Copper rock"],
  ["ore_iron", "mining", "Iron rock"],
  ["fishing_spot_net", "fishing", "Fishing spot"],
  ["fire", "firemaking", "Fire"],
];
for (let i = 0; i < 28; i++) {
  const [resourceId, skill, name] = things[i % things.length]!;
  resources.set(`r${i}`, { id: `r${i}`, resourceId, skill, name, ...place(), depleted: i % 11 === 0 });
}
const stations = new Map<string, any>();
for (const [i, type] of ["bank", "range", "furnace", "anvil", "altar", "runecrafting_altar"].entries())
  stations.set(`s${i}`, { id: `s${i}`, type, name: type, ...place(), runeType: type === "runecrafting_altar" ? "air" : "" });
const state = { tick: 0, players, npcs, resources, groundItems: new Map(), stations };
const handlers = new Map<string, Array<(d: unknown) => void>>();
const sync = {
  id: "me",
  name: "Bencher",
  position: { x: centre.x, y: 0, z: centre.z },
  health: 100,
  maxHealth: 100,
  quests: { questPoints: 0, quests: [] },
  inventory: [],
  equipment: {},
  skills: {},
};
const net = {
  state,
  playerId: "me",
  me: sync,
  token: "",
  standing: { role: "player", muted: null },
  on: (type: string, fn: (d: unknown) => void) => handlers.set(type, [...(handlers.get(type) ?? []), fn]),
  send: () => {},
};
const game = new Game(net as any, input.catalogue, input.map);
const canvas = document.getElementById("world") as HTMLCanvasElement;
const view = new WorldView(canvas, game, input.areas, null, { loop: false });
const minimap = new Minimap(document.getElementById("minimap") as HTMLCanvasElement, game, new GroundPlan(input.map, input.areas), view, null);
view.afterFrame.push((now) => minimap.draw(now));
const ctx = canvas.getContext("2d")!;

/** A tick: half of the others step to a next tile (and back toward the middle when they stray); some are hit. */
function tick(now: number) {
  state.tick++;
  let k = 0;
  for (const e of [...players.values(), ...npcs.values()]) {
    if (e.id === "me" || k++ % 2 !== state.tick % 2 || e.action) continue;
    e.x += Math.abs(e.x + 1 - centre.x) > spread.x ? -1 : random() < 0.5 ? 1 : -1;
    e.z += Math.abs(e.z + 1 - centre.z) > spread.z ? -1 : random() < 0.5 ? 1 : -1;
  }
  const styles = ["melee", "ranged", "magic"] as const;
  for (let i = 0; i < 6; i++) {
    const target = `n${Math.floor(random() * input.npcs)}`;
    const attacker = i === 0 ? "me" : `p${1 + Math.floor(random() * (input.players - 1))}`;
    // One blow in twelve kills: the npc falls and fades (and stands again in the made-up state).
    const targetHealth = random() < 1 / 12 ? 0 : 5;
    for (const fn of handlers.get("combat:hit") ?? [])
      fn({ attackerId: attacker, targetId: target, damage: Math.floor(random() * 3), targetHealth, style: styles[i % 3] });
  }
  void now;
}

const times: number[] = [];
let frames = 0;
let nextTick = 0;
function frame(now: number) {
  if (now >= nextTick) {
    tick(now);
    nextTick = now + TICK_MS;
  }
  const start = performance.now();
  view.frame(now);
  ctx.getImageData(0, 0, 1, 1);
  const took = performance.now() - start;
  if (frames++ >= input.warmup) times.push(took);
  if (times.length < input.frames) requestAnimationFrame(frame);
  else (window as unknown as { benchResult: unknown }).benchResult = { times, drawn: { players: players.size, npcs: npcs.size } };
}
requestAnimationFrame(frame);
