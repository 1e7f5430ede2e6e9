import { ADMIN_LOCK_MS, AdminGate, CHAT_RANGE_TILES, chatText, parseChat } from "../src/game/chat.js";
import { giveItem, teleport } from "../src/game/world/commands.js";
import { GameError } from "../src/game/types.js";
import type { World } from "../src/game/world/World.js";
import type { ProtocolClient } from "./protocolClient.js";

export interface ChatSession {
  playerId: string;
  accountId: string;
  client: ProtocolClient;
  admin: AdminGate;
}

export interface ChatContext {
  world: World;
  adminCode: string | undefined;
  sessions: Map<string, ChatSession>;
  /** Accounts' ignore lists: an ignored player's messages are not delivered to the ignoring account. */
  ignores: { ignores(accountId: string, characterId: string): boolean };
  /** Close a session at an admin's request. */
  kick(playerId: string, by: string): void;
  /** Send a private message to the player of that name, in whatever world (rooms/acrossWorlds.ts). */
  sendPrivate(session: ChatSession, toName: string, message: string): void;
  /** An admin's /kick of a player of that name who is not in this world: in whatever world it plays. */
  kickElsewhere(session: ChatSession, name: string, by: string): void;
}

/** Commands only an admin may use. */
const ADMIN_COMMANDS = new Set(["tp", "teleport", "give", "kick"]);

/**
 * `player:chat`: local chat to players within CHAT_RANGE_TILES, `/world <text>` to everyone, a
 * private message (channel `private`, `to` a name) to one player in any world,
 * `/admin <code>` to become admin for this session, and the admin commands. Players whose account
 * ignores the speaker do not receive the message.
 */
export function handleChat(ctx: ChatContext, session: ChatSession, text: string, channel: "local" | "world" | "private" = "local", to?: string) {
  const { world } = ctx;
  const me = world.players.get(session.playerId);
  if (!me) throw new GameError("NOT_IN_WORLD", "You are not in the world");
  if (channel === "private") return ctx.sendPrivate(session, to ?? "", chatText(text));
  const parsed = parseChat(text);

  if (parsed.kind === "say") return deliver(ctx, session.playerId, parsed.message, channel);
  if (parsed.command === "world") {
    if (!parsed.rest) throw new GameError("EMPTY_MESSAGE", "the message is empty");
    return deliver(ctx, session.playerId, parsed.rest, "world");
  }
  if (parsed.command === "admin") {
    const outcome = session.admin.tryCode(parsed.args[0], ctx.adminCode);
    const say = (code: string, message: string) => session.client.send("notice", { code, message });
    if (outcome === "granted") return say("ADMIN_GRANTED", "You are now an admin for this session");
    if (outcome === "unavailable") throw new GameError("ADMIN_UNAVAILABLE", "Admin access is not enabled on this server");
    if (outcome === "locked")
      throw new GameError("ADMIN_LOCKED", `Too many wrong admin codes: admin access is locked for this account for ${ADMIN_LOCK_MS / 60_000} minutes`);
    throw new GameError("ADMIN_WRONG_CODE", `Wrong admin code (${session.admin.attemptsLeft} attempts left)`);
  }
  if (!ADMIN_COMMANDS.has(parsed.command)) throw new GameError("UNKNOWN_COMMAND", `Unknown command /${parsed.command}`);
  if (!session.admin.isAdmin) throw new GameError("FORBIDDEN", `/${parsed.command} is for admins`);

  switch (parsed.command) {
    case "tp":
    case "teleport": {
      const [x, z] = parsed.args.map(Number);
      teleport(world, me.id, { x, z });
      return session.client.send("notice", { code: "TELEPORTED", message: `Teleported to ${x}, ${z}` });
    }
    case "give": {
      const [itemId, qty = "1", targetName] = parsed.args;
      const target = targetName ? findByName(world, targetName) : me;
      if (!target) throw new GameError("UNKNOWN_PLAYER", `No player called ${targetName} is online`);
      const quantity = Number(qty);
      giveItem(world, target.id, itemId ?? "", quantity);
      return session.client.send("notice", { code: "GIVEN", message: `Gave ${quantity} ${itemId} to ${target.name}` });
    }
    case "kick": {
      const target = findByName(world, parsed.rest);
      if (!target) return ctx.kickElsewhere(session, parsed.rest, me.name);
      ctx.kick(target.id, me.name);
      return session.client.send("notice", { code: "KICKED", message: `Kicked ${target.name}` });
    }
  }
}

function findByName(world: World, name: string) {
  const wanted = name.trim().toLowerCase();
  for (const p of world.players.values()) if (p.name.toLowerCase() === wanted) return p;
  return undefined;
}

function deliver(ctx: ChatContext, fromId: string, message: string, channel: "local" | "world") {
  const from = ctx.world.players.get(fromId)!;
  const payload = { fromId, fromName: from.name, message, channel, timestamp: new Date().toISOString() };
  const to = channel === "world" ? ctx.sessions.keys() : ctx.world.near("player", from.tile, CHAT_RANGE_TILES);
  for (const id of to) {
    const listener = ctx.sessions.get(id);
    if (listener && !ctx.ignores.ignores(listener.accountId, fromId)) listener.client.send("chat:message", payload);
  }
}
