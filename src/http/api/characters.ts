import type { Character } from "@prisma/client";
import { Router } from "express";
import { z } from "zod";
import type { TokenClaims } from "../../auth/tokens.js";
import { requireAuth } from "../requireAuth.js";
import type { ServerContext } from "../../context.js";
import { SKILLS, type SkillName } from "../../game/types.js";
import type { CharacterTemplate } from "../../manifests/gameData.js";
import { HttpError } from "../errors.js";
import { authOf, isAdmin, ownedCharacter, parse } from "./access.js";
import { newCharacter, PlayerName } from "./player.js";
import { listedCharacter } from "./playerView.js";

export const CreateBody = z.object({ name: PlayerName, templateId: z.string().min(1).max(128).optional() }).strict();
export const Params = z.object({ characterId: z.string().min(1).max(128) });

const SKILL_SET = new Set<string>(SKILLS);

/** The template's skill levels that a character can start with (known skills, 1..99). */
export function templateLevels(t: CharacterTemplate): Partial<Record<SkillName, number>> {
  return Object.fromEntries(Object.entries(t.skills).filter(([s, l]) => SKILL_SET.has(s) && Number.isInteger(l) && l >= 1 && l <= 99)) as Partial<
    Record<SkillName, number>
  >;
}

/** The template with this id, or 404 TEMPLATE_NOT_FOUND. */
export function templateOf(ctx: ServerContext, templateId: string): CharacterTemplate {
  const t = ctx.gameData.templates.get(templateId);
  if (!t) throw new HttpError(404, "TEMPLATE_NOT_FOUND", `No character template ${templateId}`);
  return t;
}

/** One of the account's characters as its list shows it. */
export async function characterSummary(ctx: Pick<ServerContext, "world">, c: Character) {
  return { ...listedCharacter(c, await ctx.world.character(c.id)), createdAt: c.createdAt.toISOString() };
}

/** An agent token drives one character; it does not manage the account's characters. */
function refuseAgentToken(auth: TokenClaims) {
  if (auth.characterId && !isAdmin(auth)) throw new HttpError(403, "FORBIDDEN", "An agent token cannot manage characters");
}

const limitReached = (max: number) => new HttpError(400, "CHARACTER_LIMIT", `An account may have at most ${max} characters`);

/**
 * A new character of the caller's account, with the starter kit (and a template's levels and
 * items). At most MAX_CHARACTERS_PER_ACCOUNT player characters per account (agents' characters
 * are counted by the agent API's own limit): checked
 * before, and again after the insert, so two creations racing past the first check cannot both
 * stay (the later one, by creation order, is removed again).
 */
export async function createOwnCharacter(ctx: ServerContext, auth: TokenClaims, spec: { name: string; template?: CharacterTemplate }) {
  refuseAgentToken(auth);
  const prisma = ctx.db.prisma;
  const max = ctx.config.maxCharactersPerAccount;
  if (!(await prisma.user.findUnique({ where: { id: auth.sub }, select: { id: true } })))
    throw new HttpError(401, "ACCOUNT_NOT_FOUND", "The token's account does not exist");
  if ((await prisma.character.count({ where: { accountId: auth.sub, isAgent: false } })) >= max) throw limitReached(max);
  const snap = await newCharacter(ctx, {
    accountId: auth.sub,
    name: spec.name,
    levels: spec.template ? templateLevels(spec.template) : undefined,
    extraItems: spec.template?.items,
  });
  const kept = await prisma.character.findMany({
    where: { accountId: auth.sub, isAgent: false },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: max,
    select: { id: true },
  });
  if (!kept.some((k) => k.id === snap.id)) {
    await prisma.character.deleteMany({ where: { id: snap.id } });
    throw limitReached(max);
  }
  return characterSummary(ctx, await prisma.character.findUniqueOrThrow({ where: { id: snap.id } }));
}

/** /api/character: the caller's own characters: list, create (optionally from a template), delete. */
export function characterRoutes(ctx: ServerContext) {
  const router = Router();
  const auth = requireAuth(ctx.config.jwtSecret, ctx.db.prisma);
  const prisma = ctx.db.prisma;

  router.get("/api/character", auth, async (req, res) => {
    const who = authOf(req);
    // An agent token sees the one character it drives.
    const where = who.characterId && !isAdmin(who) ? { id: who.characterId, accountId: who.sub } : { accountId: who.sub };
    const rows = await prisma.character.findMany({ where, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    res.json({ success: true, characters: await Promise.all(rows.map((c) => characterSummary(ctx, c))), maxCharacters: ctx.config.maxCharactersPerAccount });
  });

  router.post("/api/character", auth, async (req, res) => {
    const body = parse(CreateBody, req.body);
    const template = body.templateId === undefined ? undefined : templateOf(ctx, body.templateId);
    const character = await createOwnCharacter(ctx, authOf(req), { name: body.name, template });
    res.status(201).json({ success: true, character });
  });

  /**
   * Delete one of the caller's characters, with everything it owns (items, bank, friends, its
   * agent mapping and goals); its trades stay in the history with the name it had. Refused while
   * it is in the world, and for an agent that is set running (stop the agent first).
   */
  router.delete("/api/character/:characterId", auth, async (req, res) => {
    const who = authOf(req);
    refuseAgentToken(who);
    const { characterId } = parse(Params, req.params);
    const c = await ownedCharacter(prisma, who, characterId);
    // A running agent is asked about first: its character is in the world because of it (the runtime may have
    // brought it in a moment ago), and stopping the agent is what the owner has to do.
    if (c.isAgent && (await prisma.agentMapping.count({ where: { characterId: c.id, running: true } })) > 0) {
      throw new HttpError(400, "AGENT_RUNNING", "That character's agent is running; stop the agent before deleting it");
    }
    if ((await ctx.world.isOnline(c.id)) || (await ctx.world.hasSession(c.id))) {
      throw new HttpError(400, "CHARACTER_ONLINE", "That character is in the world; log out before deleting it");
    }
    const gone = await prisma.character.deleteMany({ where: { id: c.id } });
    if (gone.count === 0) throw new HttpError(404, "CHARACTER_NOT_FOUND", "No such character");
    res.json({ success: true, deleted: c.id });
  });
  return router;
}
