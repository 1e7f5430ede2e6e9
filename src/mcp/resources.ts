import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { WorldKnowledge } from "../game/world/knowledge.js";
import { catalogue } from "../http/api/catalogue.js";
import { worldMap } from "../http/api/world.js";
import type { McpSession } from "./session.js";

/** The resources' addresses. */
export const RESOURCES = {
  map: "arena://world/map",
  catalogue: "arena://world/catalogue",
  rules: "arena://world/rules",
  quests: "arena://character/quests",
} as const;

/** A short "how to play this world" for a model: the rules a player needs and how the tools map onto them. */
export const RULES_TEXT = `# How to play this world

A RuneScape-style world on a grid of tiles (x, z). Distances are Chebyshev: a diagonal step counts as one.
The game advances in ticks of 600 ms; you walk 2 tiles a tick (4 running). You are a player like any
other (shown to others as an agent), under the same rules and limits: at most 60 tool calls a second.

- Start with \`observe\`: your tile, health, pack (28 slots, numbered 0-27), what is near with ids and
  distances, what is open. Ids you see there are what the tools take (\`targetId\`, \`playerId\`,
  \`stationId\`).
- Every answer, whichever tool, ends with \`events\` (what you were told of since your previous answer:
  each event comes in exactly one answer; a fight's blows as one \`combat\` entry of totals) and
  \`vitals\` (health, prayer, position, free slots, who is attacking you). Watch your health there.
- \`move_to\` walks to a tile (at most 200 tiles away). \`interact\` walks next to a thing and acts on it:
  gather from a resource (needs the tool: a hatchet for trees, a pickaxe for rocks, a net or rod for
  fishing spots), attack an npc, talk to an npc (then \`dialogue_respond\` with a response's index),
  open an npc's store (then \`store_buy\` / \`store_sell\`), pick up a ground item, pray at an altar.
- Production (\`make\`): smelting at a furnace, smithing at an anvil (with a hammer), crafting and
  fletching with their tools anywhere, runecrafting at the rune's altar, tanning at the tanner. Give
  \`stationId\` to walk to the station first. Cooking and lighting fires are \`use_item\`.
- Banks: stand within 3 tiles of a bank clerk or booth and use \`bank\`.
- Fighting: keep your health up (\`eat\` food when low). Dying drops your items in a pile you can take back.
- Trading: \`trade\` with a player within 2 tiles: request, both offer, both accept the offer screen, then
  both accept the confirm screen. Items move only when both accept the second screen.
- Quests: \`quest_journal\` says what each quest asks next; talk to its start npc to begin.
- Long actions report progress; a tool answers once the server has decided: what you gained, the xp,
  or an error whose text starts with its code (NO_PATH, INVENTORY_FULL, NO_TOOL, ...). A call waits at
  most 90 ticks (54 s); a fight waits for its end; an answer with \`continues\` stopped before its
  outcome while the action goes on (call \`wait\` or the tool again).
- \`set_goal\` hands a goal (see \`agent_status\`) to the built-in agent runtime, which then plays for you
  until it is done or you call another action tool; \`wait\` lets ticks pass or waits for an event.

Resources: ${"arena://world/map"} (areas, buildings, stations, banks, npcs and where they stand, resource spots),
${"arena://world/catalogue"} (items, npcs, spells, prayers, recipes), ${"arena://character/quests"} (your journal).
`;

/** The map as a model uses it: the ground plan's areas and buildings, and where the things to use are. */
function mapOf(s: McpSession, k: WorldKnowledge) {
  const { blocked: _blocked, ...plan } = worldMap(s.ctx.gameData);
  return {
    ...plan,
    walkability: "GET /api/v1/world/map has the blocked tiles as a bitset",
    banks: k.banks,
    stations: k.stations.map((st) => ({
      id: st.id,
      type: st.type,
      name: st.name,
      x: st.tile.x,
      z: st.tile.z,
      ...(st.runeType ? { runeType: st.runeType } : {}),
    })),
    townsfolk: [...k.townsfolk.values()]
      .flat()
      .map((t) => ({ id: t.id, npcId: t.npcId, name: t.name, x: t.tile.x, z: t.tile.z, ...(t.storeId ? { storeId: t.storeId } : {}) })),
    resourceSpots: [...k.resourceSpots].map(([resourceId, spot]) => ({
      resourceId,
      skill: spot.skill,
      count: spot.tiles.length,
      tiles: spot.tiles.slice(0, 8),
    })),
    npcSpawns: [...k.npcSpawns].map(([npcId, n]) => ({ npcId, name: n.name, level: n.level, tiles: n.tiles.slice(0, 8) })),
  };
}

/** The resources (the map, the catalogue, the rules, the character's quest journal) and the `play` prompt. */
export function registerResources(server: McpServer, s: McpSession) {
  const json = (uri: URL, body: unknown) => ({ contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(body) }] });
  server.registerResource(
    "world-map",
    RESOURCES.map,
    { title: "World map", description: "Areas, buildings, stations, banks, npcs (with their ids and tiles) and resource spots.", mimeType: "application/json" },
    async (uri) => json(uri, mapOf(s, s.knowledge)),
  );
  server.registerResource(
    "catalogue",
    RESOURCES.catalogue,
    { title: "Catalogue", description: "Items, npcs, spells, prayers and production recipes.", mimeType: "application/json" },
    async (uri) => json(uri, catalogue(s.ctx.gameData)),
  );
  server.registerResource("rules", RESOURCES.rules, { title: "How to play this world", mimeType: "text/markdown" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/markdown", text: RULES_TEXT }],
  }));
  server.registerResource(
    "quest-journal",
    RESOURCES.quests,
    { title: "Quest journal", description: "The character's quests under way and completed.", mimeType: "application/json" },
    async (uri) => json(uri, { character: s.player.sight.self?.name ?? null, quests: s.player.sight.self?.quests ?? [] }),
  );
  server.registerPrompt(
    "play",
    { title: "Play this world", description: "Start an agent off: the rules, and what to do first.", argsSchema: { aim: z.string().max(500).optional() } },
    ({ aim }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text: `${RULES_TEXT}\nYou play the character ${s.player.sight.self?.name ?? ""} in this world through the tools. ${
              aim ? `Your aim: ${aim}.` : "Start with the first quest (quest_journal says where), then train your skills and earn coins."
            } Call observe first, then act one step at a time, reading each tool's answer.`,
          },
        },
      ],
    }),
  );
}
