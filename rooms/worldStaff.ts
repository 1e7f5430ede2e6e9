import type { Logger } from "pino";
import type { StandingView } from "../src/db/staffRepo.js";
import {
  bannedMessage,
  mayDo,
  mutedMessage,
  parseSanctionCommand,
  REPORT_CHAT_LINES,
  splitNamed,
  STAFF_ACTS,
  type StaffAct,
  type StaffRole,
} from "../src/game/staff.js";
import { giveItem, planGive, planTeleport, teleport } from "../src/game/world/commands.js";
import { GameError } from "../src/game/types.js";
import type { World } from "../src/game/world/World.js";
import { CLOSE_CODES, type ServerMessage } from "../src/protocol/index.js";
import type { ChatLine, Moderation, StaffActor } from "../src/staff/moderation.js";
import { orderOf } from "./messageOrder.js";
import { replier, type ProtocolClient } from "./protocolClient.js";

/** What the staff side of a world reads of a session. */
export interface StaffSession {
  playerId: string;
  accountId: string;
  client: ProtocolClient;
  /** The account's standing as this session holds it (loaded at its join, replaced whenever it changes). */
  standing: StandingView;
  /** Granted admin for this session by `/admin <code>` (the ADMIN_CODE fallback). */
  admin: { isAdmin: boolean };
  /** The server is closing this connection: a drop is then no drop. */
  closing?: boolean;
  awaitingReconnection?: { reject(reason?: unknown): void };
}

/** The act each staff command is (its role: src/game/staff.ts). */
const COMMAND_ACTS: Record<string, StaffAct> = {
  mute: "mute",
  unmute: "unmute",
  ban: "ban",
  unban: "unban",
  kick: "kick",
  tp: "teleport",
  teleport: "teleport",
  give: "give",
  broadcast: "broadcast",
};

/** The commands of the staff in chat (README "Staff and moderation"). */
export const STAFF_COMMANDS = new Set(Object.keys(COMMAND_ACTS));

/** A session's role: the account's, or admin for a session the ADMIN_CODE fallback granted it. */
export const roleOfSession = (s: Pick<StaffSession, "standing" | "admin">): StaffRole => (s.admin.isAdmin ? "admin" : s.standing.role);

/** Is the mute the session holds still in force? */
export function isMuted(standing: StandingView, now = Date.now()): boolean {
  const m = standing.mute;
  return m !== null && (m.until === null || Date.parse(m.until) > now);
}

/**
 * The last lines of chat each player of this world said or heard, kept for reports: a report
 * attaches those between the reporter and the one reported (at most REPORT_CHAT_LINES).
 */
export class ChatMemory {
  private readonly lines = new Map<string, ChatLine[]>();

  heard(playerId: string, line: ChatLine) {
    let list = this.lines.get(playerId);
    if (!list) this.lines.set(playerId, (list = []));
    list.push(line);
    if (list.length > REPORT_CHAT_LINES * 2) list.splice(0, list.length - REPORT_CHAT_LINES * 2);
  }

  /** The lines `playerId` saw that `otherId` said, or that it said itself (to `otherId` or within earshot). */
  between(playerId: string, otherId: string): ChatLine[] {
    return (this.lines.get(playerId) ?? []).filter((l) => l.fromId === otherId || l.fromId === playerId).slice(-REPORT_CHAT_LINES);
  }

  forget(playerId: string) {
    this.lines.delete(playerId);
  }
}

export interface WorldStaffContext {
  world: World;
  worldId: number;
  sessions: ReadonlyMap<string, StaffSession>;
  moderation: Moderation;
  logger: Logger;
}

/**
 * The staff in one world room: the standing of its sessions (a mute, a ban, a role changed
 * anywhere reaches them through `applyStanding`), broadcasts, the chat kept for reports, and the
 * staff's chat commands, each done through Moderation (its audit row first) and answered later
 * with `notice` or `error`.
 */
export class WorldStaff {
  readonly chat = new ChatMemory();

  constructor(private readonly c: WorldStaffContext) {}

  /** The account's standing changed: its sessions here take it; a ban removes them (error BANNED, close 4102). */
  applyStanding(accountId: string, standing: StandingView): boolean {
    let any = false;
    for (const s of this.c.sessions.values()) {
      if (s.accountId !== accountId) continue;
      any = true;
      const before = s.standing;
      s.standing = standing;
      if (standing.ban) {
        s.client.send("error", { code: "BANNED", message: bannedMessage(standing.ban.reason, standing.ban.until) });
        s.closing = true;
        s.awaitingReconnection?.reject(new Error("banned"));
        s.client.leave(CLOSE_CODES.BANNED, "banned");
        continue;
      }
      s.client.send("account:standing", { role: standing.role, muted: isMuted(standing) ? standing.mute : null });
      if (standing.mute && JSON.stringify(standing.mute) !== JSON.stringify(before.mute)) {
        s.client.send("notice", { code: "MUTED", message: mutedMessage(standing.mute.reason, standing.mute.until) });
      } else if (!standing.mute && before.mute) {
        s.client.send("notice", { code: "UNMUTED", message: "You can chat again" });
      }
      if (standing.role !== before.role) s.client.send("notice", { code: "ROLE_CHANGED", message: `Your role is now ${standing.role}` });
    }
    return any;
  }

  /** A broadcast for this world (or every world) reaches every player here. */
  broadcast(payload: ServerMessage<"system:broadcast">): boolean {
    if (payload.world !== null && payload.world !== this.c.worldId) return false;
    for (const s of this.c.sessions.values()) s.client.send("system:broadcast", payload);
    return true;
  }

  private actorOf(session: StaffSession): StaffActor {
    const name = this.c.world.players.get(session.playerId)?.name ?? session.playerId;
    return { accountId: session.accountId, characterId: session.playerId, name, role: roleOfSession(session), via: "game" };
  }

  /**
   * `/admin <code>` was right (the ADMIN_CODE fallback): the grant stands once its audit row is
   * written, else it is taken back (AUDIT_UNAVAILABLE).
   */
  grantedByCode(session: StaffSession & { admin: { revoke(): void } }) {
    const actor = this.actorOf(session);
    this.answer(session, async () => {
      try {
        await this.c.moderation.record(
          actor,
          "admin.code",
          "admin.code",
          { accountId: session.accountId, characterId: session.playerId, name: actor.name },
          {},
        );
      } catch (err) {
        session.admin.revoke();
        throw err;
      }
      return { code: "ADMIN_GRANTED", message: "You are now an admin for this session" };
    });
  }

  /** `player:report`: the chat between them this world saw goes with it; answered with `notice` REPORTED. */
  report(session: StaffSession, name: string, reason: string) {
    const me = this.c.world.players.get(session.playerId);
    if (!me) throw new GameError("NOT_IN_WORLD", "You are not in the world");
    this.answer(session, async () => {
      const target = await this.c.moderation.target(name);
      const chat = target.characterId ? this.chat.between(session.playerId, target.characterId) : [];
      const { message } = await this.c.moderation.report({ accountId: session.accountId, characterId: session.playerId, name: me.name }, name, reason, chat);
      return { code: "REPORTED", message };
    });
  }

  /** A staff command from chat (one of STAFF_COMMANDS): checked, recorded, done, answered. */
  command(session: StaffSession, command: string, rest: string, args: string[]) {
    const actor = this.actorOf(session);
    // The role first, before anything about the arguments is said.
    const act = COMMAND_ACTS[command];
    if (act && !mayDo(actor.role, act)) {
      throw new GameError("FORBIDDEN", `/${command} is for ${STAFF_ACTS[act] === "admin" ? "admins" : "moderators and admins"}`);
    }
    const m = this.c.moderation;
    switch (command) {
      case "mute":
      case "ban": {
        const { name, durationMs, reason } = parseSanctionCommand(command, rest);
        return this.answer(session, async () => ({ code: "SANCTIONED", message: (await m.sanction(actor, command, name, durationMs, reason)).message }));
      }
      case "unmute":
      case "unban": {
        const { name, rest: reason } = splitNamed(rest);
        const kind = command === "unmute" ? "mute" : "ban";
        return this.answer(session, async () => ({ code: "SANCTION_LIFTED", message: (await m.lift(actor, kind, name, reason)).message }));
      }
      case "kick": {
        const { name, rest: reason } = splitNamed(rest);
        return this.answer(session, async () => ({ code: "KICKED", message: (await m.kick(actor, name, reason)).message }));
      }
      case "broadcast":
        return this.answer(session, async () => ({ code: "BROADCAST_SENT", message: (await m.broadcast(actor, rest, null)).message }));
      case "tp":
      case "teleport": {
        const [x, z] = args.map(Number);
        // Checked before the row is written, and again when it is done.
        planTeleport(this.c.world, session.playerId, { x, z });
        return this.answer(session, async () => {
          await m.record(actor, "teleport", "teleport", { accountId: session.accountId, characterId: session.playerId, name: actor.name }, { x, z });
          teleport(this.c.world, session.playerId, { x, z });
          return { code: "TELEPORTED", message: `Teleported to ${x}, ${z}` };
        });
      }
      case "give": {
        const [itemId = "", qty = "1", ...nameWords] = args;
        const targetName = nameWords.join(" ").replace(/^"|"$/g, "");
        const target = targetName ? this.byName(targetName) : this.c.world.players.get(session.playerId);
        if (!target) throw new GameError("UNKNOWN_PLAYER", `No player called ${targetName} is in this world`);
        const quantity = Number(qty);
        planGive(this.c.world, target.id, itemId, quantity);
        const who = this.c.sessions.get(target.id);
        return this.answer(session, async () => {
          const auditId = await m.record(
            actor,
            "give",
            "give",
            { accountId: who?.accountId, characterId: target.id, name: target.name },
            { itemId, quantity, world: this.c.worldId },
          );
          giveItem(this.c.world, target.id, itemId, quantity);
          // The item ledger names the audit row the items came from.
          this.c.world.players
            .get(target.id)
            ?.ledgerEvents.push({ itemId, delta: quantity, cause: "given", ref: `audit:${auditId}`, otherId: session.playerId });
          return { code: "GIVEN", message: `Gave ${quantity} ${itemId} to ${target.name}` };
        });
      }
    }
    throw new GameError("UNKNOWN_COMMAND", `Unknown command /${command}`);
  }

  private byName(name: string) {
    const wanted = name.trim().toLowerCase();
    for (const p of this.c.world.players.values()) if (p.name.toLowerCase() === wanted) return p;
    return undefined;
  }

  /** Run an act and answer the session: its `notice`, or the `error` it was refused with. */
  private answer(session: StaffSession, act: () => Promise<{ code: string; message: string }>) {
    // The answer comes later, and still echoes the /ws frame's id.
    const reply = replier(session.client);
    const answered = act().then(
      (notice) => reply("notice", notice),
      (err: unknown) => {
        if (err instanceof GameError) return reply("error", { code: err.code, message: err.message });
        this.c.logger.error({ err }, "a staff command failed");
        reply("error", { code: "INTERNAL", message: "Something went wrong" });
      },
    );
    // The client's next messages take effect after this one (a teleport before the purchase sent after it).
    orderOf(session.client).hold(answered);
  }
}
