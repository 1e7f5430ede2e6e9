import type { Logger } from "pino";
import { GameError } from "../src/game/types.js";
import {
  bankDeposit,
  bankMoveTab,
  bankRelease,
  bankWithdraw,
  changeSetting,
  movePlayer,
  setAutocast,
  setCombatStyle,
  startAttack,
  startGather,
  startPickup,
  stopPlayer,
} from "../src/game/world/commands.js";
import { useItem } from "../src/game/world/itemUse.js";
import { playerOf } from "../src/game/world/worldCore.js";
import { startMaking } from "../src/game/world/making.js";
import { startPraying, togglePrayer } from "../src/game/world/praying.js";
import { closeStore } from "../src/game/world/stores.js";
import { closeDialogue, respond, startTalk } from "../src/game/world/talk.js";
import type { StoreDesk } from "./storeDesk.js";
import type { FeatureCommands, World } from "../src/game/world/World.js";
import { handleChat, type ChatContext, type ChatSession } from "./worldChat.js";
import {
  ClientMessages,
  describeZodError,
  FeatureMessages,
  type ClientMessage,
  type ClientMessageType,
  type FeatureMessageType,
} from "../src/protocol/index.js";

/** What the world's message handlers need from their room. */
export interface CommandContext {
  world: World;
  logger: Logger;
  chat: Omit<ChatContext, "world">;
  /** Items that moved through the bank are written at once, not at the next periodic save. */
  saveNow(playerId: string): void;
  /** Purchases and sales, committed before they are told. */
  stores: StoreDesk;
  /** The features' messages' handlers (src/features/index.ts). */
  features: FeatureCommands;
}

/** One handler per client message, each given its message already validated and typed. */
export type CommandHandlers = { [K in ClientMessageType]: (session: ChatSession, msg: ClientMessage<K>) => void };

export function worldCommands(ctx: CommandContext): CommandHandlers {
  return { ...engineCommands(ctx), ...featureCommands(ctx.world, ctx.features) };
}

/** The features' messages, each to its feature's handler with the world and the player. */
function featureCommands(world: World, features: FeatureCommands) {
  const handlers: Partial<Record<FeatureMessageType, (session: ChatSession, msg: never) => void>> = {};
  for (const type of Object.keys(FeatureMessages) as FeatureMessageType[]) {
    const run = features[type] as (world: World, playerId: string, msg: unknown) => void;
    handlers[type] = (s, m) => {
      refuseWhileHeld(world, s.playerId);
      run(world, s.playerId, m);
    };
  }
  return handlers as Pick<CommandHandlers, FeatureMessageType>;
}

/** A player held in place (a feature's stun) is refused every order: a move, an action, making, casting, a feature's message. */
function refuseWhileHeld(world: World, playerId: string) {
  const why = world.heldBy(playerOf(world, playerId));
  if (why) throw why;
}

function engineCommands(ctx: CommandContext): Omit<CommandHandlers, FeatureMessageType> {
  const w = ctx.world;
  return {
    "player:move": (s, m) => {
      refuseWhileHeld(w, s.playerId);
      movePlayer(w, s.playerId, { x: m.x, z: m.z }, m.run === true);
    },
    "player:action": (s, m) => {
      if (m.action === "style") {
        if (!m.style) throw new GameError("INVALID_PAYLOAD", "style: required");
        return setCombatStyle(w, s.playerId, m.style);
      }
      refuseWhileHeld(w, s.playerId);
      if (m.action === "stop") return stopPlayer(w, s.playerId);
      if (!m.targetId) throw new GameError("INVALID_PAYLOAD", "targetId: required");
      if (m.action === "gather") return startGather(w, s.playerId, m.targetId);
      if (m.action === "attack") return startAttack(w, s.playerId, m.targetId);
      if (m.action === "talk" || m.action === "store") return startTalk(w, s.playerId, m.targetId, m.action === "store");
      if (m.action === "pray") return startPraying(w, s.playerId, m.targetId);
      return startPickup(w, s.playerId, m.targetId);
    },
    "player:chat": (s, m) => handleChat({ world: w, ...ctx.chat }, s, m.message, m.channel, m.to),
    "player:report": (s, m) => ctx.chat.staff.report(s, m.name, m.reason),
    "player:setting": (s, m) => changeSetting(w, s.playerId, m.name, m.value),
    "inventory:use": (s, m) => useItem(w, s.playerId, m),
    "bank:deposit": (s, m) => {
      bankDeposit(w, s.playerId, m.slot, m.quantity, m.tab ?? 0);
      ctx.saveNow(s.playerId);
    },
    "bank:tab": (s, m) => {
      bankMoveTab(w, s.playerId, m.itemId, m.tab);
      ctx.saveNow(s.playerId);
    },
    "bank:release": (s, m) => {
      bankRelease(w, s.playerId, m.itemId);
      ctx.saveNow(s.playerId);
    },
    "bank:withdraw": (s, m) => {
      bankWithdraw(w, s.playerId, m.itemId, m.quantity);
      ctx.saveNow(s.playerId);
    },
    "dialogue:respond": (s, m) => respond(w, s.playerId, m.index),
    "dialogue:close": (s) => closeDialogue(w, s.playerId),
    "store:buy": (s, m) => ctx.stores.buy(s.playerId, m.itemId, m.quantity),
    "store:sell": (s, m) => ctx.stores.sell(s.playerId, m.slot, m.quantity, m.forNothing === true),
    "production:make": (s, m) => {
      refuseWhileHeld(w, s.playerId);
      startMaking(w, s.playerId, m);
    },
    "combat:cast": (s, m) => {
      refuseWhileHeld(w, s.playerId);
      startAttack(w, s.playerId, m.targetId, m.spellId);
    },
    "combat:autocast": (s, m) => setAutocast(w, s.playerId, m.spellId),
    "prayer:toggle": (s, m) => togglePrayer(w, s.playerId, m.prayerId, m.on),
    "store:close": (s) => {
      const p = playerOf(w, s.playerId);
      if (!p.store) throw new GameError("STORE_NOT_OPEN", "You have no store open");
      closeStore(w, p, "closed");
    },
  };
}

/**
 * Validate a client message and run its handler; a refusal is answered with `error` (a rule's own
 * code, INVALID_PAYLOAD for a bad payload, INTERNAL for a fault of ours, which is logged).
 */
export function runCommand<K extends ClientMessageType>(
  handlers: CommandHandlers,
  logger: Logger,
  session: ChatSession,
  type: K,
  payload: unknown,
): { code: string; message: string } | undefined {
  // An absent payload counts as {}; null or any other non-object is a wrong type (INVALID_PAYLOAD).
  const parsed = ClientMessages[type].safeParse(payload === undefined ? {} : payload);
  if (!parsed.success) return { code: "INVALID_PAYLOAD", message: `${type}: ${describeZodError(parsed.error)}` };
  try {
    (handlers[type] as (s: ChatSession, m: ClientMessage<K>) => void)(session, parsed.data as ClientMessage<K>);
    return undefined;
  } catch (err) {
    if (err instanceof GameError) return { code: err.code, message: err.message };
    logger.error({ err, type }, "message handler failed");
    return { code: "INTERNAL", message: "Something went wrong" };
  }
}
