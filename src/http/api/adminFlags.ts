import { Router, type Request } from "express";
import { z } from "zod";
import type { ServerContext } from "../../context.js";
import { FLAG_KINDS } from "../../db/flagRepo.js";
import { findTarget } from "../../db/staffRepo.js";
import type { StaffAct } from "../../game/staff.js";
import { moderationOf, type StaffActor } from "../../staff/moderation.js";
import { HttpError } from "../errors.js";
import { parse } from "./access.js";
import { staffAct } from "./staffActs.js";

export const FlagQuery = z.strictObject({
  status: z.enum(["open", "cleared", "all"]).default("open"),
  kind: z.enum(FLAG_KINDS).optional(),
  player: z.string().trim().min(1).max(128).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const FlagParams = z.strictObject({ flagId: z.string().min(1).max(128) });
export const ClearBody = z.strictObject({ note: z.string().trim().min(1).max(500) });

/**
 * The flagged list (docs/API.md "Admin API"; what raises a flag: rooms/worldWatchdog.ts): GET
 * /api/admin/flags (open ones by default, the latest sighting first) and POST
 * /api/admin/flags/:flagId/clear with what was found (an audit row `flag.clear`). Moderators and
 * admins. Mounted by adminRoutes behind its token check; `actor` is its role check.
 */
export function adminFlagRoutes(ctx: ServerContext, actor: (req: Request, act: StaffAct) => Promise<StaffActor>) {
  const router = Router();
  const prisma = ctx.db.prisma;
  const moderation = moderationOf(ctx);

  router.get("/api/admin/flags", async (req, res) => {
    await actor(req, "flags.read");
    const q = parse(FlagQuery, req.query);
    const target = q.player ? await findTarget(prisma, q.player) : undefined;
    if (q.player && !target) throw new HttpError(404, "UNKNOWN_PLAYER", `No player ${q.player}`);
    const flags = await prisma.flag.findMany({
      where: {
        ...(q.status === "open" ? { clearedAt: null } : q.status === "cleared" ? { clearedAt: { not: null } } : {}),
        ...(q.kind ? { kind: q.kind } : {}),
        ...(target ? { accountId: target.accountId } : {}),
      },
      orderBy: { lastAt: "desc" },
      take: q.limit,
    });
    res.json({ success: true, flags });
  });

  router.post("/api/admin/flags/:flagId/clear", async (req, res) => {
    const { flagId } = parse(FlagParams, req.params);
    const { note } = parse(ClearBody, req.body);
    const who = await actor(req, "flags.clear");
    const flag = await prisma.flag.findUnique({ where: { id: flagId } });
    if (!flag) throw new HttpError(404, "FLAG_NOT_FOUND", "No such flag");
    if (flag.clearedAt) throw new HttpError(409, "FLAG_CLEARED", `Cleared already by ${flag.clearedByName}`);
    await staffAct(() =>
      moderation.record(
        who,
        "flags.clear",
        "flag.clear",
        { accountId: flag.accountId, characterId: flag.characterId, name: flag.name },
        { flagId, kind: flag.kind },
        note,
      ),
    );
    const cleared = await prisma.flag.update({ where: { id: flagId }, data: { clearedAt: new Date(), clearedByName: who.name, clearNote: note } });
    res.json({ success: true, flag: cleared });
  });

  return router;
}
