import { startingInventory } from "../../src/game/inventory.js";
import { defaultSkillXp } from "../../src/game/skills.js";
import type { Tile } from "../../src/game/types.js";
import { addPlayer } from "../../src/game/world/players.js";
import type { World } from "../../src/game/world/World.js";

/**
 * A new character with the world's starter kit, placed by hand in a world with no room around it
 * (the trade and duel book suites): id `c_<name>`, account `u_<name>`, at `tile` (the spawn).
 */
export function addStarter(world: World, name: string, tile: Tile = world.spawnTile) {
  return addPlayer(world, {
    id: `c_${name}`,
    accountId: `u_${name}`,
    name,
    isAgent: false,
    tile,
    xp: defaultSkillXp(),
    health: 100,
    inventory: startingInventory(world.data.starterKit, world.data.items),
    equipment: {},
    bank: [],
  });
}
