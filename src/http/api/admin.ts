import path from "node:path";
import type { Prisma } from "@prisma/client";
import { Router, type Request } from "express";
import { z } from "zod";
import type { ServerContext } from "../../context.js";
import { BackupError, backupEmbedded } from "../../db/backup.js";
import { loadCharacter } from "../../db/characterRepo.js";
import { findTarget, standingOf, standingView } from "../../db/staffRepo.js";
import { conservation, ledgerPage } from "../../db/ledgerRepo.js";
import { parseDuration, STAFF_ROLES, type StaffAct } from "../../game/staff.js";
import { moderationOf, type StaffActor } from "../../staff/moderation.js";
import { restartsOf } from "../../staff/restart.js";
import { contentOf, ContentRefused } from "../../staff/contentReload.js";
import { heldInactiveItems } from "../../db/itemSync.js";
import { HttpError } from "../errors.js";
import { requireAuth } from "../requireAuth.js";
import { authOf, parse, refuseUnlessMay } from "./access.js";
import { adminAddressRoutes } from "./adminAddresses.js";
import { adminFlagRoutes } from "./adminFlags.js";
import { adminDrainRoutes } from "./adminDrain.js";
import { staffAct } from "./staffActs.js";
import { adminChatRoutes } from "./adminChat.js";
import { adminLiveRoutes } from "./adminLive.js";

const name = z.string().trim().min(1).max(128);
const reason = z.string().trim().min(1).max(500);
const page = {
  limit: z.coerce.number().int().min(1).max(200).default(50),
  before: z
    .string()
    .regex(/^\d{1,18}$/, "an audit row id")
    .optional(),
};

export const NameParams = z.object({ nameOrId: name }).strict();
export const ReportParams = z.object({ reportId: z.string().min(1).max(128) }).strict();

export const ConservationQuery = z.object({ character: name.optional() }).strict();
export const LedgerQuery = z.object({ item: z.string().min(1).max(128).optional(), ...page }).strict();

export const SanctionBody = z.object({ name, kind: z.enum(["mute", "ban"]), duration: z.string().min(1).max(16), reason }).strict();
export const LiftBody = z.object({ name, kind: z.enum(["mute", "ban"]), reason: reason.optional() }).strict();
export const KickBody = z.object({ name, reason: reason.optional() }).strict();
export const RoleBody = z.object({ name, role: z.enum(STAFF_ROLES), reason: reason.optional() }).strict();
export const BroadcastBody = z.object({ message: z.string().min(1).max(300), world: z.number().int().min(1).max(9999).nullable().optional() }).strict();
export const RestartBody = z.object({ inSeconds: z.number().int().min(10).max(3600), reason }).strict();
export const ReloadBody = z.object({ reason: reason.optional() }).strict();
export const CloseBody = z.object({ resolution: reason }).strict();
export const ReportQuery = z.object({ status: z.enum(["open", "claimed", "closed"]).optional(), limit: page.limit }).strict();
export const SanctionQuery = z.object({ active: z.enum(["true", "false"]).optional(), name: name.optional(), limit: page.limit }).strict();
export const AuditQuery = z
  .object({
    actor: name.optional(),
    target: name.optional(),
    kind: z.string().min(1).max(64).optional(),
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
    ...page,
  })
  .strict();

/**
 * /api/admin/*: the staff's REST API (docs/API.md "Admin API"). Every route needs a Bearer token
 * of a staff account (its role read from the database; moderators and admins as each route says:
 * 403 FORBIDDEN otherwise) and counts against the REST rate limit like any /api request. Every act
 * writes its audit row first (src/staff/moderation.ts).
 */
export function adminRoutes(ctx: ServerContext) {
  const router = Router();
  const auth = requireAuth(ctx.config.jwtSecret, ctx.db.prisma);
  const prisma = ctx.db.prisma;
  const moderation = moderationOf(ctx);

  /** The caller as a staff actor, refused FORBIDDEN unless its role may do `act`. */
  const actor = async (req: Request, act: StaffAct): Promise<StaffActor> => {
    const who = authOf(req);
    const role = refuseUnlessMay(req, act);
    const first = await prisma.character.findFirst({ where: { accountId: who.sub }, orderBy: { createdAt: "asc" }, select: { id: true, name: true } });
    return { accountId: who.sub, characterId: first?.id ?? null, name: first?.name ?? who.sub, role, via: "rest" };
  };

  router.use("/api/admin", auth);
  router.use(adminLiveRoutes(ctx));
  router.use(adminChatRoutes(ctx, actor));
  router.use(adminAddressRoutes(ctx, actor));
  router.use(adminFlagRoutes(ctx, actor));
  router.use(adminDrainRoutes(ctx, actor));

  router.get("/api/admin/players", async (req, res) => {
    await actor(req, "players.read");
    const online = await ctx.world.onlineCharacters();
    const owners = await prisma.character.findMany({ where: { id: { in: online.map((p) => p.id) } }, select: { id: true, accountId: true } });
    const accountOf = new Map(owners.map((o) => [o.id, o.accountId]));
    res.json({ success: true, players: online.map((p) => ({ ...p, accountId: accountOf.get(p.id) ?? null })) });
  });

  router.get("/api/admin/characters/:nameOrId", async (req, res) => {
    await actor(req, "players.read");
    const { nameOrId } = parse(NameParams, req.params);
    const target = await findTarget(prisma, nameOrId);
    if (!target?.characterId) throw new HttpError(404, "CHARACTER_NOT_FOUND", "No such character");
    const [saved, live, sessions, sanctions, reports, standing] = await Promise.all([
      loadCharacter(ctx.db.sql, target.characterId),
      ctx.world.character(target.characterId),
      prisma.playerSession.findMany({ where: { characterId: target.characterId }, orderBy: { startedAt: "desc" }, take: 20 }),
      prisma.sanction.findMany({ where: { accountId: target.accountId }, orderBy: { createdAt: "desc" }, take: 50 }),
      prisma.playerReport.findMany({ where: { targetAccountId: target.accountId }, orderBy: { createdAt: "desc" }, take: 50 }),
      standingOf(prisma, target.accountId),
    ]);
    const now = live ?? saved;
    res.json({
      success: true,
      character: {
        id: target.characterId,
        name: target.name,
        accountId: target.accountId,
        role: target.role,
        online: live !== undefined,
        world: live?.world ?? null,
        position: now?.tile ?? null,
        health: now?.health ?? null,
        xp: now?.xp ?? null,
        inventory: now?.inventory ?? [],
        equipment: now?.equipment ?? {},
        bank: now?.bank ?? [],
      },
      standing: standingView(standing),
      sessions,
      sanctions,
      reports,
    });
  });

  router.get("/api/admin/sanctions", async (req, res) => {
    await actor(req, "sanctions.read");
    const q = parse(SanctionQuery, req.query);
    const where: Prisma.SanctionWhereInput = {};
    if (q.name) {
      const t = await findTarget(prisma, q.name);
      if (!t) throw new HttpError(404, "UNKNOWN_PLAYER", `No player called ${q.name}`);
      where.accountId = t.accountId;
    }
    if (q.active === "true") Object.assign(where, { liftedAt: null, OR: [{ endsAt: null }, { endsAt: { gt: new Date() } }] });
    res.json({ success: true, sanctions: await prisma.sanction.findMany({ where, orderBy: { createdAt: "desc" }, take: q.limit }) });
  });

  router.post("/api/admin/sanctions", async (req, res) => {
    const body = parse(SanctionBody, req.body);
    const who = await actor(req, body.kind);
    const result = await staffAct(() => moderation.sanction(who, body.kind, body.name, parseDuration(body.duration), body.reason));
    res.status(201).json({ success: true, sanction: result.sanction, message: result.message });
  });

  router.post("/api/admin/sanctions/lift", async (req, res) => {
    const body = parse(LiftBody, req.body);
    const who = await actor(req, body.kind === "mute" ? "unmute" : "unban");
    const result = await staffAct(() => moderation.lift(who, body.kind, body.name, body.reason));
    res.json({ success: true, sanction: result.sanction, message: result.message });
  });

  router.post("/api/admin/kick", async (req, res) => {
    const body = parse(KickBody, req.body);
    const who = await actor(req, "kick");
    res.json({ success: true, message: (await staffAct(() => moderation.kick(who, body.name, body.reason))).message });
  });

  router.post("/api/admin/roles", async (req, res) => {
    const body = parse(RoleBody, req.body);
    const who = await actor(req, body.role === "player" ? "role.revoke" : "role.grant");
    const result = await staffAct(() => moderation.setRole(who, body.name, body.role, body.reason));
    res.json({ success: true, accountId: result.target.accountId, role: body.role, message: result.message });
  });

  router.get("/api/admin/reports", async (req, res) => {
    await actor(req, "reports.read");
    const q = parse(ReportQuery, req.query);
    res.json({
      success: true,
      reports: await prisma.playerReport.findMany({ where: q.status ? { status: q.status } : {}, orderBy: { createdAt: "desc" }, take: q.limit }),
    });
  });

  router.post("/api/admin/reports/:reportId/claim", async (req, res) => {
    const { reportId } = parse(ReportParams, req.params);
    const who = await actor(req, "reports.handle");
    res.json({ success: true, report: await staffAct(() => moderation.claimReport(who, reportId)) });
  });

  router.post("/api/admin/reports/:reportId/close", async (req, res) => {
    const { reportId } = parse(ReportParams, req.params);
    const body = parse(CloseBody, req.body);
    const who = await actor(req, "reports.handle");
    res.json({ success: true, report: await staffAct(() => moderation.closeReport(who, reportId, body.resolution)) });
  });

  router.get("/api/admin/audit", async (req, res) => {
    await actor(req, "audit.read");
    const q = parse(AuditQuery, req.query);
    const where: Prisma.AuditLogWhereInput = {};
    const accountOf = async (nameOrId: string) => (await findTarget(prisma, nameOrId))?.accountId ?? nameOrId;
    if (q.actor) where.actorAccountId = await accountOf(q.actor);
    if (q.target) where.targetAccountId = await accountOf(q.target);
    if (q.kind) where.kind = q.kind;
    if (q.from || q.to) where.at = { ...(q.from ? { gte: new Date(q.from) } : {}), ...(q.to ? { lt: new Date(q.to) } : {}) };
    if (q.before) where.id = { lt: BigInt(q.before) };
    const rows = await prisma.auditLog.findMany({ where, orderBy: { id: "desc" }, take: q.limit });
    const entries = rows.map((r) => ({ ...r, id: r.id.toString() }));
    res.json({ success: true, entries, next: rows.length === q.limit ? entries[entries.length - 1].id : null });
  });

  router.get("/api/admin/audit/conservation", async (req, res) => {
    await actor(req, "audit.read");
    const q = parse(ConservationQuery, req.query);
    let characterId: string | undefined;
    if (q.character) {
      const t = await findTarget(prisma, q.character);
      if (!t?.characterId) throw new HttpError(404, "CHARACTER_NOT_FOUND", "No such character");
      characterId = t.characterId;
    }
    const report = await conservation(ctx.db.sql, characterId);
    // Each mismatch with the ledger rows around it (the latest of that item).
    const holdings = await Promise.all(
      report.holdings.map(async (m) => ({ ...m, rows: (await ledgerPage(ctx.db.sql, m.characterId, { limit: 10, itemId: m.itemId })).reverse() })),
    );
    res.json({
      success: true,
      characters: report.characters,
      ok: holdings.length === 0 && report.transfers.length === 0,
      holdings,
      transfers: report.transfers,
    });
  });

  router.get("/api/admin/characters/:nameOrId/ledger", async (req, res) => {
    await actor(req, "players.read");
    const { nameOrId } = parse(NameParams, req.params);
    const q = parse(LedgerQuery, req.query);
    const target = await findTarget(prisma, nameOrId);
    if (!target?.characterId) throw new HttpError(404, "CHARACTER_NOT_FOUND", "No such character");
    const rows = await ledgerPage(ctx.db.sql, target.characterId, { limit: q.limit, before: q.before, itemId: q.item });
    res.json({ success: true, characterId: target.characterId, rows, next: rows.length === q.limit ? rows[rows.length - 1].id : null });
  });

  router.post("/api/admin/broadcast", async (req, res) => {
    const body = parse(BroadcastBody, req.body);
    const who = await actor(req, "broadcast");
    res.json({ success: true, message: (await staffAct(() => moderation.broadcast(who, body.message, body.world ?? null))).message });
  });

  router.post("/api/admin/save", async (req, res) => {
    const who = await actor(req, "save-all");
    await staffAct(() => moderation.record(who, "save-all", "save-all", null, {}));
    res.json({ success: true, saved: await ctx.world.saveAll() });
  });

  router.post("/api/admin/backup", async (req, res) => {
    const who = await actor(req, "backup");
    if (!ctx.db.backup) {
      throw new HttpError(409, "NOT_EMBEDDED", "This server runs on PostgreSQL: back it up with pg_dump (README, Backups)");
    }
    const file = path.join(ctx.config.dataDir, "backups", `backup-${new Date().toISOString().replace(/[:.]/g, "-")}.tar`);
    await staffAct(() => moderation.record(who, "backup", "backup", null, { file }));
    // The tar with its manifest beside it, checked against each other before the answer (src/db/backup.ts).
    const { manifest, manifestFile } = await backupEmbedded(ctx.db, file).catch((err) => {
      throw err instanceof BackupError ? new HttpError(500, "BACKUP_FAILED", err.message) : err;
    });
    res
      .status(201)
      .json({ success: true, file, bytes: manifest.bytes, sha256: manifest.sha256, manifest: manifestFile, characters: manifest.counts.characters });
  });

  router.post("/api/admin/content/reload", async (req, res) => {
    const body = parse(ReloadBody, req.body ?? {});
    const who = await actor(req, "content.reload");
    const reloads = contentOf(ctx);
    let result;
    try {
      result = await reloads.reload(async (version, changes) => {
        await staffAct(() =>
          moderation.record(who, "content.reload", "content.reload", null, { version, previousVersion: ctx.gameData.version, changes }, body.reason),
        );
      });
    } catch (err) {
      if (!(err instanceof ContentRefused)) throw err;
      res.status(err.code === "CONTENT_INVALID" ? 422 : 409).json({ success: false, error: { code: err.code, message: err.message, problems: err.problems } });
      return;
    }
    // Saved holdings of items no longer defined, beside what the worlds' players hold now.
    res.json({ success: true, ...result, heldRemoved: { online: result.worlds.flatMap((w) => w.heldRemoved), saved: await heldInactiveItems(ctx.db.sql) } });
  });

  const restarts = restartsOf(ctx);
  router.get("/api/admin/restart", async (req, res) => {
    await actor(req, "restart");
    res.json({ success: true, restart: restarts.scheduled ?? null });
  });

  router.post("/api/admin/restart", async (req, res) => {
    const body = parse(RestartBody, req.body);
    const who = await actor(req, "restart");
    await staffAct(() => moderation.record(who, "restart", "restart", null, { inSeconds: body.inSeconds }, body.reason));
    const plan = await staffAct(async () => restarts.schedule(body.inSeconds, body.reason, who.name));
    res.status(202).json({ success: true, ...plan });
  });

  router.delete("/api/admin/restart", async (req, res) => {
    const who = await actor(req, "restart");
    if (!restarts.scheduled) throw new HttpError(404, "NO_RESTART", "No restart is scheduled");
    await staffAct(() => moderation.record(who, "restart", "restart.cancel", null, {}));
    restarts.cancel();
    res.json({ success: true });
  });

  return router;
}
