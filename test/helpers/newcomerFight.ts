import { WORLD_FEATURES } from "../../src/features/index.js";
import { startingInventory } from "../../src/game/inventory.js";
import { chebyshev } from "../../src/game/movement.js";
import { seededRng } from "../../src/game/random.js";
import { defaultSkillXp, maxHealth, skillLevels } from "../../src/game/skills.js";
import { startAttack } from "../../src/game/world/commands.js";
import type { NpcEntity, PlayerEntity } from "../../src/game/world/entities.js";
import { useItem } from "../../src/game/world/itemUse.js";
import { addPlayer } from "../../src/game/world/players.js";
import { tickWorld } from "../../src/game/world/tick.js";
import type { World } from "../../src/game/world/World.js";
import type { GameData } from "../../src/manifests/index.js";
import { tileOf } from "../../src/manifests/shapes.js";
import { createWorld } from "../../rooms/worldSetup.js";

/**
 * A scripted newcomer's first fight (bench:newcomer, test/world/firstFight.test.ts): Mudfoot
 * Menace's three goblins, fought in the world's own rules (the default world's manifests and
 * features, one seeded dice per fight), tick by tick and without a clock.
 *
 * The newcomer: a new character (default levels, the starter kit) with The Warden's Letter's reward
 * in the pack, standing at the centre of Mudfoot Fields' first spawn of goblins. It does what the
 * web client's hints tell it: wields the weapon it is given, and eats when its health is at 40 % or
 * less. It attacks the nearest goblin no one fights, and the next once that one falls.
 */
export const TICK_S = 0.6;
export const GOBLINS = 3;
/** A goblin not down after this many ticks (5 minutes) ends the fight as a failure. */
const GIVE_UP_TICKS = 500;
/** The web client's hint to eat comes at 40 % health (client/src/chat.ts). */
const EAT_AT = 0.4;

export interface FirstFight {
  /** Seconds from the order to attack each goblin to its fall (walking up to it included); Infinity for one not downed. */
  goblinSeconds: number[];
  /** The lowest health reached, as a fraction of the maximum. */
  lowestHealth: number;
  eaten: number;
  died: boolean;
}

/** The goals for a first fight: health never under 30 %, every goblin down in under 60 s. */
export const metGoals = (f: FirstFight) => !f.died && f.lowestHealth >= 0.3 && f.goblinSeconds.length === GOBLINS && f.goblinSeconds.every((s) => s < 60);

export function fightMudfoot(data: GameData, seed: number, wield: string | null): FirstFight {
  let id = 0;
  const world = createWorld(data, { rng: seededRng(seed), newId: () => `e${++id}`, features: WORLD_FEATURES.list });
  const p = newcomer(world, data, wield);
  const max = maxHealth(p.levels.constitution);
  const run: FirstFight = { goblinSeconds: [], lowestHealth: 1, eaten: 0, died: false };
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

function newcomer(world: World, data: GameData, wield: string | null): PlayerEntity {
  const fields = data.worldAreas.get("mudfoot_fields");
  const spawn = fields?.mobSpawns.find((m) => m.mobId === "goblin");
  if (!spawn) throw new Error("the world has no goblins at mudfoot_fields");
  const xp = defaultSkillXp();
  const reward = data.quests.get("the_wardens_letter")?.rewardItems ?? [];
  const p = addPlayer(world, {
    id: "newcomer",
    accountId: "newcomer",
    name: "Newcomer",
    isAgent: false,
    tile: tileOf(spawn.position),
    xp,
    health: maxHealth(skillLevels(xp).constitution),
    inventory: startingInventory([...data.starterKit, ...reward], data.items),
    equipment: {},
    bank: [],
  });
  if (wield) {
    const slot = p.inventory.findIndex((s) => s?.itemId === wield);
    if (slot < 0) throw new Error(`the newcomer carries no ${wield}`);
    useItem(world, p.id, { slot, action: "equip" });
  }
  return p;
}

function nearestGoblin(world: World, p: PlayerEntity): NpcEntity | undefined {
  let best: NpcEntity | undefined;
  let bestD = Infinity;
  for (const n of world.npcs.values()) {
    if (n.defId !== "goblin" || n.deadUntilTick != null || n.target) continue;
    const d = chebyshev(n.position, p.tile);
    if (d < bestD) [best, bestD] = [n, d];
  }
  return best;
}
