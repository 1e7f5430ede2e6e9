import type { Logger } from "pino";
import type { World } from "../src/game/world/World.js";
import { ClientMessages, TradeMessages, type ClientMessageType, type TradeMessageType } from "../src/protocol/index.js";
import type { AcrossWorlds } from "./acrossWorlds.js";
import { MAX_WAITING, orderOf } from "./messageOrder.js";
import { inReplyLater } from "./protocolClient.js";
import { runCommand, type CommandHandlers } from "./worldCommands.js";
import type { OpenDesk } from "../src/worldDesks.js";
import { dispatchEvents, type EventContext } from "./worldEvents.js";
import type { WorldClient } from "./worldSessions.js";
import type { TradeDesk } from "./tradeDesk.js";

/** What a spectator is told of any message it sends. */
export const SPECTATOR_MESSAGE = "You are watching an agent: a spectator acts on nothing";

/** What a world room's messages are handed to. */
export interface MessageRoutes {
  /** Register a handler of a message type (the room's onMessage; "*": any other type). */
  on(type: string, handler: (client: WorldClient, payload: unknown) => void): void;
  world: World;
  logger: Logger;
  commands: CommandHandlers;
  events: EventContext;
  trades: TradeDesk;
  /** The features' desks, with what routes to them. */
  desks: readonly OpenDesk[];
  across: AcrossWorlds;
  /** Is the client a spectator's (it watches an agent, and acts on nothing)? */
  spectating(client: WorldClient): boolean;
  /** Each world command a player's client sent, and its refusal's code (rooms/worldWatchdog.ts). */
  watchdog?: { order(session: { playerId: string; accountId: string }, type: string, refused?: string): void };
}

/**
 * Every message a world room takes, to its handler: the world's commands (validated and run by
 * rooms/worldCommands.ts, a refusal answered with `error`), the trade messages and the features'
 * (a duel's) to their desks (a request naming a player of another world goes there), and any other type answered with
 * UNKNOWN_EVENT. What a message set off (a dialogue node, a store opening, a quest's progress, a
 * duel's start) is told at once, not at the next tick.
 */
export function routeWorldMessages(r: MessageRoutes): void {
  const told = () => dispatchEvents(r.events, r.world.events.drain());
  // Each client's messages in the order sent (rooms/messageOrder.ts): one whose answer is under way holds the next.
  const on = (type: string, handler: (client: WorldClient, payload: unknown) => void) =>
    r.on(type, (client, payload) => {
      if (r.spectating(client)) return client.send("error", { code: "SPECTATOR", message: SPECTATOR_MESSAGE });
      const run = inReplyLater(client);
      const ran = orderOf(client).run(() => run(() => handler(client, payload)));
      if (!ran) client.send("error", { code: "RATE_LIMITED", message: `At most ${MAX_WAITING} messages may wait behind one still being answered` });
    });
  for (const type of Object.keys(ClientMessages) as ClientMessageType[]) {
    on(type, (client, payload) => {
      const session = client.userData;
      if (!session) return client.send("error", { code: "NOT_IN_WORLD", message: "You are not in the world yet" });
      const refusal = runCommand(r.commands, r.logger, session, type, payload);
      r.watchdog?.order(session, type, refusal?.code);
      if (refusal) client.send("error", refusal);
      told();
    });
  }
  for (const type of Object.keys(TradeMessages) as TradeMessageType[]) {
    on(type, (client, payload) => {
      const session = client.userData;
      if (!session) return client.send("tradeError", { code: "NOT_IN_WORLD", message: "You are not in the world yet" });
      const run = () => r.trades.receive(session.playerId, type, payload);
      if (type === "tradeRequest" && r.across.requestElsewhere(client, payload, "tradeError", run)) return;
      run();
    });
  }
  for (const { feature, desk } of r.desks) {
    for (const type of feature.messages) {
      on(type, (client, payload) => {
        const session = client.userData;
        if (!session) return client.send(feature.errorType, { code: "NOT_IN_WORLD", message: "You are not in the world yet" });
        const run = () => {
          desk.receive(session.playerId, type, payload);
          told();
        };
        if (type === feature.request && r.across.requestElsewhere(client, payload, feature.errorType, run)) return;
        run();
      });
    }
  }
  r.on("*", (client, type) => {
    if (r.spectating(client)) return client.send("error", { code: "SPECTATOR", message: SPECTATOR_MESSAGE });
    client.send("error", { code: "UNKNOWN_EVENT", message: `Unknown event ${String(type)}` });
  });
}
