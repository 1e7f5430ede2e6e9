/**
 * A small, hand-written manifest set in the current (split) format with deliberate defects,
 * for the loader tests. `goodFixture()` has none; `brokenFixture()` adds one of each kind.
 */

export type Files = Record<string, unknown>;

const item = (id: string, extra: Record<string, unknown> = {}) => ({ id, name: id.replace(/_/g, " "), value: 5, ...extra });

export function goodFixture(): Files {
  return {
    "items/weapons.json": [item("bronze_sword", { type: "weapon", equipSlot: "weapon", bonuses: { attack: 4, strength: 3 } })],
    "items/tools.json": [
      item("bronze_hatchet", { type: "tool", tier: "bronze", tool: { skill: "woodcutting" } }),
      item("iron_hatchet", { type: "tool", tier: "iron", tool: { skill: "woodcutting" } }),
      item("net", { type: "tool" }),
    ],
    "items/resources.json": [item("logs", { type: "resource" }), item("raw_fish", { type: "resource" })],
    "items/food.json": [item("fish", { type: "consumable", healAmount: 4 }), item("burnt_fish", { type: "junk", value: 0 })],
    "items/misc.json": [
      item("coins", { type: "currency", stackable: true }),
      item("quest_scroll", { type: "quest", tradeable: false }),
      item("odd_gem", { type: "misc", untradeable: true }),
    ],
    "npcs.json": [
      {
        id: "goblin",
        name: "Goblin",
        category: "mob",
        stats: { level: 2, health: 5 },
        combat: { attackable: true, aggressive: true, attackSpeedTicks: 4, respawnTicks: 30 },
        drops: { defaultDrop: { enabled: true, itemId: "logs", quantity: 1 }, common: [{ itemId: "coins", minQuantity: 1, maxQuantity: 5, chance: 1 }] },
      },
      { id: "clerk", name: "Clerk", category: "neutral", services: { enabled: true, types: ["bank"] } },
    ],
    "world-areas.json": {
      starterTowns: {
        town: {
          id: "town",
          name: "Town",
          bounds: { minX: 0, maxX: 20, minZ: 0, maxZ: 20 },
          safeZone: true,
          npcs: [
            { id: "clerk", type: "bank", position: { x: 2, y: 0, z: 2 } },
            { id: "goblin", storeId: "shop", position: { x: 3, z: 3 } },
          ],
          resources: [{ type: "tree", resourceId: "tree_basic", position: { x: 5, y: 0, z: 5 } }],
          mobSpawns: [{ mobId: "goblin", position: { x: 10, y: 0, z: 10 }, spawnRadius: 3, maxCount: 2 }],
        },
      },
      level1Areas: {
        pond: {
          name: "Pond",
          bounds: { minX: 20, maxX: 40, minZ: 0, maxZ: 20 },
          resources: [{ type: "fishing_spot", resourceId: "spot_net", position: { x: 25, z: 5 } }],
        },
      },
    },
    "biomes.json": [{ id: "plains", name: "Plains", mobs: ["goblin"], vegetation: { enabled: true, layers: [{ category: "tree", assets: ["oak_a"] }] } }],
    "vegetation.json": { assets: [{ id: "oak_a", model: "trees/oak_a.glb" }] },
    "stores.json": [{ id: "shop", name: "Shop", items: [{ itemId: "bronze_hatchet", price: 20, stockQuantity: -1 }] }],
    "gathering/woodcutting.json": {
      trees: [
        {
          id: "tree_basic",
          name: "Tree",
          harvestSkill: "woodcutting",
          toolRequired: "bronze_hatchet",
          levelRequired: 1,
          baseCycleTicks: 4,
          depleteChance: 0.2,
          respawnTicks: 40,
          harvestYield: [{ itemId: "logs", quantity: 1, chance: 1, xpAmount: 25, catchLow: 60, catchHigh: 190 }],
        },
      ],
    },
    "gathering/fishing.json": {
      spots: [
        {
          id: "spot_net",
          name: "Net spot",
          harvestSkill: "fishing",
          toolRequired: "net",
          levelRequired: 1,
          harvestYield: [{ itemId: "raw_fish", xpAmount: 10 }],
        },
      ],
    },
    "recipes/cooking.json": { recipes: [{ raw: "raw_fish", cooked: "fish", burnt: "burnt_fish", level: 1, xp: 30, ticks: 4 }] },
    "skill-unlocks.json": {
      skills: {
        woodcutting: [
          { level: 15, description: "Oak trees", type: "item" },
          { level: 1, description: "Normal trees", type: "item" },
          { level: 30, description: "Lumber yard", type: "area" },
        ],
        defence: [{ level: 1, description: "Bronze armour", type: "item" }],
      },
    },
    "starter-kit.json": {
      items: [
        { itemId: "bronze_hatchet", quantity: 1 },
        { itemId: "coins", quantity: 10 },
      ],
    },
    "character-templates.json": [{ id: "fighter", name: "Fighter", skills: { attack: 5, Defence: 3 }, items: [{ itemId: "bronze_sword", quantity: 1 }] }],
  };
}

/** The good fixture plus one broken reference or invalid record of each kind. */
export function brokenFixture(): Files {
  const f = goodFixture() as Record<string, any>;
  f["items/misc.json"].push({ id: "nameless", value: 3 }); // invalid: no name
  f["items/misc.json"].push(item("coins", { value: 99 })); // duplicate id
  f["npcs.json"][0].drops.common.push({ itemId: "ghost_item", chance: 0.5 });
  f["stores.json"][0].items.push({ itemId: "unobtainium", price: 1000 });
  f["stores.json"][0].items.push({ itemId: "coins", price: -5 }); // invalid: negative price
  f["gathering/woodcutting.json"].trees.push({
    id: "tree_phantom",
    name: "Phantom tree",
    toolRequired: "bronze_hatchet",
    levelRequired: 1,
    harvestYield: [{ itemId: "phantom_logs", xpAmount: 1 }],
  });
  f["gathering/mining.json"] = {
    rocks: [{ id: "rock_basic", name: "Rock", toolRequired: "pickaxe", levelRequired: 1, harvestYield: [{ itemId: "logs" }] }],
  };
  const town = f["world-areas.json"].starterTowns.town;
  town.npcs.push({ id: "phantom_npc", type: "healer", position: { x: 1, y: 0, z: 1 } });
  town.npcs.push({ id: "clerk", storeId: "no_such_store", position: { x: 1, y: 0, z: 1 } });
  town.resources.push({ type: "tree", resourceId: "tree_missing", position: { x: 6, y: 0, z: 6 } });
  town.resources.push({ type: "tree", resourceId: "tree_phantom", position: { x: 7, y: 0, z: 7 } });
  town.resources.push({ type: "ore", resourceId: "rock_basic", position: { x: 8, y: 0, z: 8 } });
  town.mobSpawns.push({ mobId: "dragon", position: { x: 12, y: 0, z: 12 } });
  town.mobSpawns.push({ mobId: "goblin" }); // invalid: no position
  f["biomes.json"][0].vegetation.layers[0].assets.push("undefined_bush");
  f["recipes/cooking.json"].recipes.push({ raw: "raw_eel", cooked: "eel", burnt: "burnt_eel", level: 20, xp: 50 });
  f["skill-unlocks.json"].skills.woodcutting.push({ level: 40, description: "Bad type", type: "cosmetic" });
  f["starter-kit.json"].items.push({ itemId: "golden_spoon", quantity: 1 });
  f["character-templates.json"][0].items.push({ itemId: "mythic_blade", quantity: 1 });
  return f;
}
