import { Router, type Request } from "express";
import { z } from "zod";
import type { ServerContext } from "../../context.js";
import { ADDRESS_BAN_MAX_MS, createAddressBan, isAddress, liftAddressBans, normalAddress, refusesLogin, type AddressBanScope } from "../../db/addressBans.js";
import { findTarget } from "../../db/staffRepo.js";
import { parseDuration, roleOf, type StaffAct } from "../../game/staff.js";
import { moderationOf, type StaffActor } from "../../staff/moderation.js";
import { HttpError } from "../errors.js";
import { parse } from "./access.js";
import { staffAct } from "./staffActs.js";

const address = z.string().trim().max(64).refine(isAddress, "one IPv4 or IPv6 address (no range)").transform(normalAddress);
const reason = z.string().trim().min(1).max(500);
export const AddressBanBody = z.strictObject({ address, scope: z.enum(["guests", "all"]).default("guests"), duration: z.string().min(1).max(16), reason });
export const AddressLiftBody = z.strictObject({ address, reason: reason.optional() });
export const AddressBanQuery = z.strictObject({
  address: address.optional(),
  active: z.enum(["true", "false"]).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const SessionQuery = z.strictObject({
  player: z.string().trim().min(1).max(128).optional(),
  address: address.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/**
 * Addresses for the staff (docs/API.md "Admin API"): the sessions by player or by address
 * (GET /api/admin/sessions), and bans by address (GET, POST /api/admin/address-bans, POST
 * …/lift; src/db/addressBans.ts for what a ban refuses). Moderators and admins; each ban and lift
 * is a row in the audit log (`address.ban`, `address.unban`). Mounted by adminRoutes behind its
 * token check; `actor` is its role check.
 */
export function adminAddressRoutes(ctx: ServerContext, actor: (req: Request, act: StaffAct) => Promise<StaffActor>) {
  const router = Router();
  const prisma = ctx.db.prisma;
  const moderation = moderationOf(ctx);

  /** Let go whoever plays from the address now and the ban would refuse (a guest, or anyone but the staff); how many. */
  async function kickRefused(address: string, scope: AddressBanScope, by: string): Promise<number> {
    const open = await prisma.playerSession.findMany({ where: { address, endedAt: null }, select: { characterId: true, accountId: true } });
    const accounts = await prisma.user.findMany({
      where: { id: { in: [...new Set(open.map((s) => s.accountId))] } },
      select: { id: true, isGuest: true, roles: true },
    });
    const byId = new Map(accounts.map((a) => [a.id, a]));
    let kicked = 0;
    for (const s of open) {
      const a = byId.get(s.accountId);
      if (!a || !refusesLogin({ scope }, { guest: a.isGuest, staff: roleOf(a.roles) !== "player" })) continue;
      if (await ctx.world.kick(s.characterId, `${by} (a ban of your address)`)) kicked++;
    }
    return kicked;
  }

  router.get("/api/admin/sessions", async (req, res) => {
    await actor(req, "players.read");
    const q = parse(SessionQuery, req.query);
    if (!q.player && !q.address) throw new HttpError(400, "INVALID_PAYLOAD", "player or address: say whose sessions");
    const target = q.player ? await findTarget(prisma, q.player) : undefined;
    if (q.player && !target) throw new HttpError(404, "UNKNOWN_PLAYER", `No player ${q.player}`);
    const sessions = await prisma.playerSession.findMany({
      where: { ...(target ? { accountId: target.accountId } : {}), ...(q.address ? { address: q.address } : {}) },
      orderBy: { startedAt: "desc" },
      take: q.limit,
      include: { character: { select: { name: true } } },
    });
    res.json({
      success: true,
      sessions: sessions.map(({ character, ...s }) => ({ ...s, name: character.name })),
      // How many accounts these sessions are of: an address shared by many is a school's, a café's, a carrier's.
      accounts: new Set(sessions.map((s) => s.accountId)).size,
    });
  });

  router.get("/api/admin/address-bans", async (req, res) => {
    await actor(req, "sanctions.read");
    const q = parse(AddressBanQuery, req.query);
    const now = new Date();
    const active = { liftedAt: null, endsAt: { gt: now } };
    const where = { ...(q.address ? { address: q.address } : {}), ...(q.active === "true" ? active : q.active === "false" ? { NOT: active } : {}) };
    res.json({ success: true, bans: await prisma.addressBan.findMany({ where, orderBy: { createdAt: "desc" }, take: q.limit }) });
  });

  router.post("/api/admin/address-bans", async (req, res) => {
    const body = parse(AddressBanBody, req.body);
    const who = await actor(req, "ban");
    const durationMs = await staffAct(async () => parseDuration(body.duration));
    if (durationMs === null || durationMs > ADDRESS_BAN_MAX_MS)
      throw new HttpError(400, "INVALID_DURATION", "A ban by address is for a time, at most 30 days (30d): addresses change hands");
    await staffAct(() => moderation.record(who, "ban", "address.ban", null, { address: body.address, scope: body.scope, durationMs }, body.reason));
    const ban = await createAddressBan(prisma, { ...body, durationMs, byAccountId: who.accountId, byName: who.name });
    res.status(201).json({ success: true, ban, kicked: await kickRefused(body.address, ban.scope as AddressBanScope, who.name) });
  });

  router.post("/api/admin/address-bans/lift", async (req, res) => {
    const body = parse(AddressLiftBody, req.body);
    const who = await actor(req, "unban");
    const active = await prisma.addressBan.count({ where: { address: body.address, liftedAt: null, endsAt: { gt: new Date() } } });
    if (active === 0) throw new HttpError(409, "NOT_SANCTIONED", `No ban on ${body.address} is in force`);
    await staffAct(() => moderation.record(who, "unban", "address.unban", null, { address: body.address }, body.reason ?? null));
    res.json({ success: true, lifted: await liftAddressBans(prisma, body.address, who.name, body.reason ?? null) });
  });

  return router;
}
