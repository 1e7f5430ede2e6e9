import { Router, type Request } from "express";
import { z } from "zod";
import type { ServerContext } from "../../context.js";
import { searchChat } from "../../db/chatRepo.js";
import { findTarget } from "../../db/staffRepo.js";
import type { StaffActor } from "../../staff/moderation.js";
import { moderationOf } from "../../staff/moderation.js";
import { HttpError } from "../errors.js";
import { parse } from "./access.js";

/** The lines around a report: from this long before it was made to this long after. */
export const REPORT_CHAT_BEFORE_MS = 15 * 60_000;
export const REPORT_CHAT_AFTER_MS = 5 * 60_000;

const name = z.string().trim().min(1).max(128);
export const ChatQuery = z.strictObject({
  player: name.optional(),
  with: name.optional(),
  q: z.string().trim().min(1).max(200).optional(),
  channel: z.enum(["local", "world", "private"]).optional(),
  world: z.coerce.number().int().min(1).max(9999).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  before: z
    .string()
    .regex(/^\d{1,18}$/, "a chat line id")
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const ReportChatParams = z.strictObject({ reportId: z.string().min(1).max(128) });

/**
 * The chat log for the staff (docs/API.md "Admin API"): GET /api/admin/chat searches every line
 * said in the last CHAT_RETENTION_DAYS by player, by two players, by words, channel, world and
 * time, newest first, in pages; GET /api/admin/reports/:reportId/chat gives the lines between the
 * reporter and the one reported around the report's time. Moderators and admins; each search is
 * a row in the audit log (`chat.search`, `chat.report`). Mounted by adminRoutes behind its token
 * check; `actor` is its role check.
 */
export function adminChatRoutes(ctx: ServerContext, actor: (req: Request, act: "chat.read") => Promise<StaffActor>) {
  const router = Router();
  const prisma = ctx.db.prisma;
  const moderation = moderationOf(ctx);

  /** A player named in a query: its character id (404 UNKNOWN_PLAYER for no such player). */
  const characterOf = async (nameOrId: string) => {
    const t = await findTarget(prisma, nameOrId);
    if (!t?.characterId) throw new HttpError(404, "UNKNOWN_PLAYER", `No player ${nameOrId}`);
    return t;
  };

  router.get("/api/admin/chat", async (req, res) => {
    const who = await actor(req, "chat.read");
    const q = parse(ChatQuery, req.query);
    if (q.with && !q.player) throw new HttpError(400, "INVALID_PAYLOAD", "with: needs player (the lines between player and with)");
    const player = q.player ? await characterOf(q.player) : undefined;
    const other = q.with ? await characterOf(q.with) : undefined;
    await moderation.record(who, "chat.read", "chat.search", player ?? null, { ...q, limit: q.limit });
    const found = await searchChat(prisma, {
      characterId: other ? undefined : (player?.characterId ?? undefined),
      between: player && other ? [player.characterId!, other.characterId!] : undefined,
      words: q.q?.split(/\s+/).filter(Boolean),
      channel: q.channel,
      world: q.world === undefined ? undefined : String(q.world),
      from: q.from ? new Date(q.from) : undefined,
      to: q.to ? new Date(q.to) : undefined,
      before: q.before === undefined ? undefined : BigInt(q.before),
      limit: q.limit,
    });
    res.json({ success: true, retentionDays: ctx.config.chatRetentionDays, ...found });
  });

  router.get("/api/admin/reports/:reportId/chat", async (req, res) => {
    const who = await actor(req, "chat.read");
    const { reportId } = parse(ReportChatParams, req.params);
    const report = await prisma.playerReport.findUnique({ where: { id: reportId } });
    if (!report) throw new HttpError(404, "REPORT_NOT_FOUND", "No such report");
    await moderation.record(
      who,
      "chat.read",
      "chat.report",
      { accountId: report.targetAccountId, characterId: report.targetCharacterId, name: report.targetName },
      { reportId },
    );
    const at = report.createdAt.getTime();
    const found = report.reporterCharacterId
      ? await searchChat(prisma, {
          between: [report.reporterCharacterId, report.targetCharacterId],
          from: new Date(at - REPORT_CHAT_BEFORE_MS),
          to: new Date(at + REPORT_CHAT_AFTER_MS),
          limit: 200,
        })
      : { lines: [], next: null };
    res.json({
      success: true,
      reportId,
      from: new Date(at - REPORT_CHAT_BEFORE_MS).toISOString(),
      to: new Date(at + REPORT_CHAT_AFTER_MS).toISOString(),
      lines: found.lines.reverse(),
    });
  });

  return router;
}
