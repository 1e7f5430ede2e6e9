import type { Logger } from "pino";
import type { SaidLine } from "../src/db/chatRepo.js";
import type { SqlRunner } from "../src/db/sql.js";
import { characterIdByName } from "../src/db/socialRepo.js";
import type { ServerMessage } from "../src/protocol/index.js";
import type { WorldAccess } from "../src/worldAccess.js";
import type { RefusalMessageType } from "../src/worldDesks.js";
import { orderOf } from "./messageOrder.js";
import { inReplyLater, replier, type ProtocolClient } from "./protocolClient.js";

/**
 * What one world does with players of other worlds (in this process or on another of a cluster),
 * always through the world facade (`ctx.world`), never through another room's objects:
 * - a private message (`player:chat` on channel `private`) to the player of that name, wherever it
 *   plays: its own world delivers it unless the recipient's account ignores the sender; the sender
 *   gets the message back as the echo (also when it was ignored, which it is not told), or `error`
 *   UNKNOWN_PLAYER (no such name) / PLAYER_OFFLINE (in no world now);
 * - a trade or duel request to a player not in this world: refused OTHER_WORLD when that player is
 *   in another world (trades and duels stay inside one world), else the world's own answer.
 * Their answers come later (a database read, a remote room call) and still echo the /ws frame's id.
 */
export class AcrossWorlds {
  constructor(
    private readonly o: {
      sql: SqlRunner;
      world: WorldAccess;
      logger: Logger;
      /** This world's id. */
      worldId: number;
      /** Is the player in this world? */
      isHere(playerId: string): boolean;
      /** A line said (a private message delivered, or held back by the other's ignore list), for the chat log. */
      said?: (line: Omit<SaidLine, "at" | "world">) => void;
    },
  ) {}

  privateMessage(from: { playerId: string; accountId: string; name: string; client: ProtocolClient }, toName: string, message: string): void {
    const reply = replier(from.client);
    const sent = this.sendPrivate(from, reply, toName, message).catch((err) => {
      this.o.logger.warn({ err }, "a private message could not be sent");
      reply("error", { code: "INTERNAL", message: "The message could not be sent" });
    });
    orderOf(from.client).hold(sent);
  }

  /**
   * A trade or duel request (`targetPlayerId`) to a player not in this world: taken here (true),
   * refused OTHER_WORLD when that player is in another world, else `otherwise` gives the world's
   * own answer (not online). False when the target is in this world (or the payload names none).
   */
  requestElsewhere(client: ProtocolClient, payload: unknown, errorType: RefusalMessageType, otherwise: () => void): boolean {
    const target = (payload as { targetPlayerId?: unknown } | null)?.targetPlayerId;
    if (typeof target !== "string" || this.o.isHere(target)) return false;
    const within = inReplyLater(client);
    const answered = this.o.world.worldOf(target).then(
      (w) =>
        within(() => {
          if (w !== undefined && w !== this.o.worldId)
            client.send(errorType, { code: "OTHER_WORLD", message: `That player is in world ${w}: trades and duels stay inside one world` });
          else otherwise();
        }),
      () => within(otherwise),
    );
    orderOf(client).hold(answered);
    return true;
  }

  private async sendPrivate(
    from: { playerId: string; accountId: string; name: string },
    reply: ProtocolClient["send"],
    toName: string,
    message: string,
  ): Promise<void> {
    const target = await characterIdByName(this.o.sql, toName);
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
    const outcome = await this.o.world.deliverPrivate(target.id, payload);
    if (outcome === "offline") return reply("error", { code: "PLAYER_OFFLINE", message: `${target.name} is not online` });
    this.o.said?.({
      channel: "private",
      fromCharacterId: from.playerId,
      fromAccountId: from.accountId,
      fromName: from.name,
      toCharacterId: target.id,
      toName: target.name,
      message,
    });
    reply("chat:message", payload);
  }
}
