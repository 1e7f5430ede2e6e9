import type { NpcEntity, PlayerEntity } from "../../game/world/entities.js";
import type { World, WorldFeature } from "../../game/world/World.js";

/**
 * A duel arena's scoreboard (an npc offering the `scoreboard` service, such as the published duel
 * arena's): talking to it tells its player to look at the duel rankings (notice SCOREBOARD), which
 * the web client opens on the hiscores' duel board (GET /api/v1/hiscores/duels).
 */
function showScoreboard(world: World, p: PlayerEntity, npc: NpcEntity) {
  world.events.push({ kind: "notice", playerId: p.id, code: "SCOREBOARD", message: `${npc.name}: the duel rankings are at /api/v1/hiscores/duels` });
}

export const scoreboard: WorldFeature = { name: "scoreboard", npcServices: { scoreboard: showScoreboard } };
