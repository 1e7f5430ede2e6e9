import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import type { Prisma, PrismaClient } from "@prisma/client";
import type { Logger } from "pino";
import {
  checkBroadcast,
  checkReason,
  describeEnd,
  rank,
  REPORT_WINDOW_MS,
  REPORTS_PER_WINDOW,
  requireOutranks,
  requireRole,
  sanctionEnd,
  type SanctionKind,
  type StaffAct,
  type StaffRole,
} from "../game/staff.js";
import { GameError } from "../game/types.js";
import { addSanction, appendAudit, findTarget, liftSanction, setRole, standingOf, standingView, type AuditEntry, type StaffTarget } from "../db/staffRepo.js";
import type { WorldAccess } from "../worldAccess.js";

/** Who does a privileged act: an account (null: the operator at the command line), under a name, with its role, by which way. */
export interface StaffActor {
  accountId: string | null;
  characterId?: string | null;
  name: string;
  role: StaffRole;
  via: AuditEntry["via"];
}

/** A line of chat the server saw, attached to a report. */
export interface ChatLine {
  at: string;
  fromId: string;
  fromName: string;
  channel: string;
  message: string;
}

/** This process, as audit rows name it. */
export const PROCESS_ID = `${hostname()}:${process.pid}`;

/**
 * The privileged acts: each checks the actor's role, writes its audit row in the same transaction
 * as the change it makes (a failed write refuses the act, AUDIT_UNAVAILABLE, and changes
 * nothing), then makes it felt in every world of every process (`ctx.world`): a standing that
 * changed reaches the account's sessions at once, a ban removes them.
 */
export class Moderation {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly world: Pick<WorldAccess, "applyStanding" | "broadcast" | "kick" | "hasSession">,
    private readonly logger: Logger,
    private readonly processId = PROCESS_ID,
  ) {}

  /** The target a staff act names, or UNKNOWN_PLAYER. */
  async target(nameOrId: string): Promise<StaffTarget> {
    const t = await findTarget(this.prisma, nameOrId.trim());
    if (!t) throw new GameError("UNKNOWN_PLAYER", `No player called ${nameOrId.trim()}`);
    return t;
  }

  /**
   * Run `change` with its audit row in one transaction; a database failure is AUDIT_UNAVAILABLE.
   * What `change` gave, and the audit row's id.
   */
  private async audited<T>(
    entry: Omit<AuditEntry, "processId">,
    change: (tx: Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0]) => Promise<T>,
  ): Promise<{ value: T; auditId: bigint }> {
    try {
      return await this.prisma.$transaction(async (tx) => {
        const value = await change(tx);
        const auditId = await appendAudit(tx, { ...entry, processId: this.processId });
        return { value, auditId };
      });
    } catch (err) {
      if (err instanceof GameError) throw err;
      this.logger.error({ err, kind: entry.kind }, "a privileged act was refused: its audit row could not be written");
      throw new GameError("AUDIT_UNAVAILABLE", "The act could not be recorded in the audit log, so it was not done; try again");
    }
  }

  /**
   * An act with nothing to change but its audit row (a /give, a teleport, a restart): the row
   * first, or the act is refused. The row's id is given back (a /give's ledger rows name it).
   */
  async record(
    actor: StaffActor,
    act: StaffAct,
    kind: string,
    target: Partial<StaffTarget> | null,
    args: Record<string, unknown>,
    reason?: string | null,
  ): Promise<string> {
    requireRole(actor.role, act);
    return (await this.audited(this.entryOf(actor, kind, target, args, reason), async () => undefined)).auditId.toString();
  }

  private entryOf(
    actor: StaffActor,
    kind: string,
    target: Partial<StaffTarget> | null,
    args: Record<string, unknown>,
    reason?: string | null,
  ): Omit<AuditEntry, "processId"> {
    return {
      actorAccountId: actor.accountId,
      actorCharacterId: actor.characterId ?? null,
      actorName: actor.name,
      via: actor.via,
      kind,
      targetAccountId: target?.accountId ?? null,
      targetCharacterId: target?.characterId ?? null,
      targetName: target?.name ?? null,
      args,
      reason: reason ?? null,
    };
  }

  /** The account's standing as it is now reaches its sessions in every world (a ban removes them). */
  async publishStanding(accountId: string) {
    const standing = await standingOf(this.prisma, accountId);
    await this.world.applyStanding(accountId, standingView(standing));
  }

  /** Mute or ban the account of the player named, for `durationMs` (null: permanent). */
  async sanction(actor: StaffActor, kind: SanctionKind, name: string, durationMs: number | null, reasonText: string) {
    requireRole(actor.role, kind);
    const reason = checkReason(reasonText)!;
    const target = await this.target(name);
    if (target.accountId === actor.accountId) throw new GameError("TARGET_IS_STAFF", `You cannot ${kind} yourself`);
    requireOutranks(actor.role, target.role);
    const now = new Date();
    const endsAt = sanctionEnd(now.getTime(), durationMs);
    const { value: sanction } = await this.audited(this.entryOf(actor, kind, target, { durationMs, endsAt: endsAt?.toISOString() ?? null }, reason), (tx) =>
      addSanction(tx, { accountId: target.accountId, kind, reason, endsAt, byAccountId: actor.accountId, byName: actor.name, targetName: target.name }, now),
    );
    await this.publishStanding(target.accountId);
    return { sanction, target, message: `${kind === "mute" ? "Muted" : "Banned"} ${target.name} ${describeEnd(endsAt)}: ${reason}` };
  }

  /** Lift the mute or ban in force on the account of the player named. NOT_SANCTIONED when there is none. */
  async lift(actor: StaffActor, kind: SanctionKind, name: string, reasonText?: string) {
    requireRole(actor.role, kind === "mute" ? "unmute" : "unban");
    const reason = checkReason(reasonText, false);
    const target = await this.target(name);
    const { value: lifted } = await this.audited(this.entryOf(actor, kind === "mute" ? "unmute" : "unban", target, {}, reason), async (tx) => {
      const s = await liftSanction(tx, target.accountId, kind, { accountId: actor.accountId, name: actor.name }, reason, new Date());
      if (!s) throw new GameError("NOT_SANCTIONED", `${target.name} is not ${kind === "mute" ? "muted" : "banned"}`);
      return s;
    });
    await this.publishStanding(target.accountId);
    return { sanction: lifted, target, message: `${kind === "mute" ? "Unmuted" : "Unbanned"} ${target.name}` };
  }

  /** Kick the player named out of whatever world it plays in (UNKNOWN_PLAYER when it plays nowhere). */
  async kick(actor: StaffActor, name: string, reasonText?: string) {
    requireRole(actor.role, "kick");
    const reason = checkReason(reasonText, false);
    const target = await this.target(name);
    if (target.accountId !== actor.accountId) requireOutranks(actor.role, target.role);
    // Only a player online is kicked (and only then is there a row to write).
    if (!target.characterId || !(await this.world.hasSession(target.characterId))) throw new GameError("UNKNOWN_PLAYER", `${target.name} is not online`);
    await this.audited(this.entryOf(actor, "kick", target, {}, reason), async () => undefined);
    if (!(await this.world.kick(target.characterId, reason ? `${actor.name} (${reason})` : actor.name)))
      throw new GameError("UNKNOWN_PLAYER", `${target.name} is not online`);
    return { target, message: `Kicked ${target.name}` };
  }

  /** Give the account of `nameOrId` the role (admins only); `player` takes staff roles away. */
  async setRole(actor: StaffActor, nameOrId: string, role: StaffRole, reasonText?: string) {
    requireRole(actor.role, role === "player" ? "role.revoke" : "role.grant");
    const reason = checkReason(reasonText, false);
    const target = await this.target(nameOrId);
    if (target.accountId === actor.accountId && rank(role) < rank(actor.role)) {
      throw new GameError("TARGET_IS_STAFF", "You cannot lower your own role: another admin (or the operator's npm run admin) does that");
    }
    await this.audited(this.entryOf(actor, role === "player" ? "role.revoke" : "role.grant", target, { from: target.role, to: role }, reason), (tx) =>
      setRole(tx, target.accountId, role),
    );
    await this.publishStanding(target.accountId);
    return { target, message: `${target.name} is now ${role === "admin" ? "an admin" : `a ${role}`}` };
  }

  /** A message from the staff to one world or all of them. */
  async broadcast(actor: StaffActor, text: string, world: number | null) {
    requireRole(actor.role, "broadcast");
    const message = checkBroadcast(text);
    await this.audited(this.entryOf(actor, "broadcast", null, { message, world }), async () => undefined);
    await this.world.broadcast({ message, from: actor.name, world, kind: "broadcast", timestamp: new Date().toISOString() });
    return { message: world === null ? "Broadcast to every world" : `Broadcast to world ${world}` };
  }

  /**
   * A player's report of another (by name): at most REPORTS_PER_WINDOW per account in
   * REPORT_WINDOW_MS (RATE_LIMITED), never of oneself (SELF_REPORT). `chat`: the lines the
   * server saw between them (the reporter's world keeps them).
   */
  async report(reporter: { accountId: string; characterId: string | null; name: string }, name: string, reasonText: string, chat: ChatLine[]) {
    const reason = checkReason(reasonText)!;
    const target = await this.target(name);
    if (target.accountId === reporter.accountId) throw new GameError("SELF_REPORT", "You cannot report yourself");
    if (!target.characterId) throw new GameError("UNKNOWN_PLAYER", `No player called ${name.trim()}`);
    const since = new Date(Date.now() - REPORT_WINDOW_MS);
    const recent = await this.prisma.playerReport.count({ where: { reporterAccountId: reporter.accountId, createdAt: { gt: since } } });
    if (recent >= REPORTS_PER_WINDOW) throw new GameError("RATE_LIMITED", `At most ${REPORTS_PER_WINDOW} reports in ${REPORT_WINDOW_MS / 60_000} minutes`);
    const report = await this.prisma.playerReport.create({
      data: {
        id: `r_${randomUUID()}`,
        reporterAccountId: reporter.accountId,
        reporterCharacterId: reporter.characterId,
        reporterName: reporter.name,
        targetAccountId: target.accountId,
        targetCharacterId: target.characterId,
        targetName: target.name,
        reason,
        chat: chat as never,
      },
    });
    return { report, message: `Thank you: your report of ${target.name} reaches the staff` };
  }

  /** A staff member takes an open report (or one claimed by someone else: it moves to them). */
  async claimReport(actor: StaffActor, id: string) {
    requireRole(actor.role, "reports.handle");
    return this.handleReport(actor, id, "report.claim", undefined, {
      status: "claimed",
      claimedByAccountId: actor.accountId,
      claimedByName: actor.name,
      claimedAt: new Date(),
    });
  }

  /** A staff member closes a report with what was done. */
  async closeReport(actor: StaffActor, id: string, resolutionText: string) {
    requireRole(actor.role, "reports.handle");
    const resolution = checkReason(resolutionText)!;
    return this.handleReport(actor, id, "report.close", resolution, {
      status: "closed",
      closedByAccountId: actor.accountId,
      closedByName: actor.name,
      closedAt: new Date(),
      resolution,
    });
  }

  /** A report that is not closed (REPORT_NOT_FOUND, REPORT_CLOSED), changed with its audit row (the role checked by the caller). */
  private async handleReport(actor: StaffActor, id: string, kind: string, reason: string | undefined, data: Prisma.PlayerReportUpdateInput) {
    const report = await this.prisma.playerReport.findUnique({ where: { id } });
    if (!report) throw new GameError("REPORT_NOT_FOUND", "No such report");
    if (report.status === "closed") throw new GameError("REPORT_CLOSED", "That report is closed");
    const target = { accountId: report.targetAccountId, characterId: report.targetCharacterId, name: report.targetName };
    return (await this.audited(this.entryOf(actor, kind, target, { reportId: id }, reason), (tx) => tx.playerReport.update({ where: { id }, data }))).value;
  }
}

/** One Moderation per server context (made on first use). */
const services = new WeakMap<object, Moderation>();
export function moderationOf(ctx: { db: { prisma: PrismaClient }; world: WorldAccess; logger: Logger }): Moderation {
  let m = services.get(ctx);
  if (!m) services.set(ctx, (m = new Moderation(ctx.db.prisma, ctx.world, ctx.logger)));
  return m;
}
