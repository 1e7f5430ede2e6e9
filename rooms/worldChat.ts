import { ADMIN_LOCK_MS, AdminGate, CHAT_RANGE_TILES, chatText, parseChat } from "../src/game/chat.js";
import type { SaidLine } from "../src/db/chatRepo.js";
import { mutedMessage } from "../src/game/staff.js";
import { GameError } from "../src/game/types.js";
import type { World } from "../src/game/world/World.js";
import type { StandingView } from "../src/db/staffRepo.js";
import type { ProtocolClient } from "./protocolClient.js";
import { isMuted, STAFF_COMMANDS, type WorldStaff } from "./worldStaff.js";

export interface ChatSession {
  playerId: string;
  accountId: string;
  client: ProtocolClient;
  admin: AdminGate;
  /** The account's role and sanctions, as this session holds them (rooms/worldStaff.ts). */
  standing: StandingView;
}

export interface ChatContext {
  world: World;
  adminCode: string | undefined;
  sessions: Map<string, ChatSession>;
  /** Accounts' ignore lists: an ignored player's messages are not delivered to the ignoring account. */
  ignores: { ignores(accountId: string, characterId: string): boolean };
  /** Send a private message to the player of that name, in whatever world (rooms/acrossWorlds.ts). */
  sendPrivate(session: ChatSession, toName: string, message: string): void;
  /** The staff's commands, the chat kept for reports, and the audit of `/admin`. */
  staff: WorldStaff;
  /** A line said here (local or world), for the chat log. */
  said?: (line: Omit<SaidLine, "at" | "world">) => void;
}

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
  const parsed = parseChat(text);
  const speaks = channel === "private" || parsed.kind === "say" || parsed.command === "world";
  // A muted account says nothing, on any channel (its commands still work).
  if (speaks && isMuted(session.standing)) throw new GameError("MUTED", mutedMessage(session.standing.mute!.reason, session.standing.mute!.until));
  if (channel === "private") return ctx.sendPrivate(session, to ?? "", chatText(text));

  if (parsed.kind === "say") return deliver(ctx, session, parsed.message, channel);
  if (parsed.command === "world") {
    if (!parsed.rest) throw new GameError("EMPTY_MESSAGE", "the message is empty");
    return deliver(ctx, session, parsed.rest, "world");
  }
  if (parsed.command === "admin") {
    const outcome = session.admin.tryCode(parsed.args[0], ctx.adminCode);
    if (outcome === "granted") return ctx.staff.grantedByCode(session);
    if (outcome === "unavailable") throw new GameError("ADMIN_UNAVAILABLE", "Admin access is not enabled on this server");
    if (outcome === "locked")
      throw new GameError("ADMIN_LOCKED", `Too many wrong admin codes: admin access is locked for this account for ${ADMIN_LOCK_MS / 60_000} minutes`);
    throw new GameError("ADMIN_WRONG_CODE", `Wrong admin code (${session.admin.attemptsLeft} attempts left)`);
  }
  if (!STAFF_COMMANDS.has(parsed.command)) throw new GameError("UNKNOWN_COMMAND", `Unknown command /${parsed.command}`);
  return ctx.staff.command(session, parsed.command, parsed.rest, parsed.args);
}

function deliver(ctx: ChatContext, session: ChatSession, message: string, channel: "local" | "world") {
  const fromId = session.playerId;
  const from = ctx.world.players.get(fromId)!;
  ctx.said?.({ channel, fromCharacterId: fromId, fromAccountId: session.accountId, fromName: from.name, message });
  const payload = { fromId, fromName: from.name, message, channel, timestamp: new Date().toISOString() };
  const to = channel === "world" ? ctx.sessions.keys() : ctx.world.near("player", from.tile, CHAT_RANGE_TILES);
  const line = { at: payload.timestamp, fromId, fromName: from.name, channel, message };
  for (const id of to) {
    const listener = ctx.sessions.get(id);
    if (listener && !ctx.ignores.ignores(listener.accountId, fromId)) {
      listener.client.send("chat:message", payload);
      ctx.staff.chat.heard(id, line);
    }
  }
}
