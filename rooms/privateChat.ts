import type { SqlRunner } from "../src/db/sql.js";
import { characterIdByName } from "../src/db/socialRepo.js";
import type { ServerMessage } from "../src/protocol/index.js";
import type { WorldAccess } from "../src/worldAccess.js";
import type { ProtocolClient } from "./protocolClient.js";

/**
 * An admin's /kick of a player not in the admin's world: the player of that name, in whatever world
 * and on whatever process it plays (the world facade's kick). `notice` KICKED, or `error`
 * UNKNOWN_PLAYER when nobody of that name is online anywhere.
 */
export async function kickElsewhere(deps: { sql: SqlRunner; world: WorldAccess }, reply: ProtocolClient["send"], name: string, by: string): Promise<void> {
  const target = await characterIdByName(deps.sql, name);
  if (!target || !(await deps.world.kick(target.id, by))) return reply("error", { code: "UNKNOWN_PLAYER", message: `No player called ${name} is online` });
  reply("notice", { code: "KICKED", message: `Kicked ${target.name}` });
}

/**
 * A private message (`player:chat` on channel `private`): to the player of that name, in whatever
 * world and on whatever process it plays, through the world facade (a remote room call when it
 * plays elsewhere). Its own world delivers it unless the recipient's account ignores the sender;
 * the sender gets the message back as the echo (also when it was ignored, which it is not told),
 * or `error` UNKNOWN_PLAYER (no such name) / PLAYER_OFFLINE (in no world now).
 */
export async function sendPrivate(
  deps: { sql: SqlRunner; world: WorldAccess },
  from: { playerId: string; name: string },
  reply: ProtocolClient["send"],
  toName: string,
  message: string,
): Promise<void> {
  const target = await characterIdByName(deps.sql, toName);
  if (!target) return reply("error", { code: "UNKNOWN_PLAYER", message: `No player is called ${toName}` });
  const payload: ServerMessage<"chat:message"> = {
    fromId: from.playerId,
    fromName: from.name,
    message,
    channel: "private",
    timestamp: new Date().toISOString(),
    toId: target.id,
    toName: target.name,
  };
  const outcome = await deps.world.deliverPrivate(target.id, payload);
  if (outcome === "offline") return reply("error", { code: "PLAYER_OFFLINE", message: `${target.name} is not online` });
  reply("chat:message", payload);
}
