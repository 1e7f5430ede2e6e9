import { Router } from "express";
import { z } from "zod";
import { requireAuth } from "../requireAuth.js";
import type { ServerContext } from "../../context.js";
import { CHARACTER_NAME, createCharacter, isUniqueViolation } from "../../db/characterRepo.js";
import { startingInventory } from "../../game/inventory.js";
import { tileOf } from "../../manifests/shapes.js";
import { HttpError } from "../errors.js";
import { authOf, CharacterQuery, currentCharacter, parse, requireCharacter } from "./access.js";
import { playerView } from "./playerView.js";

const colour = z.string().regex(/^#[0-9a-fA-F]{6}$/, "a colour like #a0522d");

/** What a player may choose of their looks. */
export const Appearance = z
  .object({
    body: z.enum(["a", "b"]),
    hair: z.string().min(1).max(32),
    hairColour: colour,
    skinColour: colour,
    torsoColour: colour,
    legsColour: colour,
  })
  .partial()
  .strict();

export const PlayerName = z.string().regex(CHARACTER_NAME, "1-12 letters, digits and single spaces");

export const PlayerBody = z.object({ name: PlayerName.optional(), appearance: Appearance.optional() }).strict();

/** Create a character with the world's starter kit at the spawn; a taken name is 400 on `name`. */
export async function newCharacter(
  ctx: ServerContext,
  spec: { accountId: string; name?: string; isAgent?: boolean; levels?: Record<string, number>; extraItems?: Array<{ itemId: string; quantity: number }> },
) {
  const items = ctx.gameData.items;
  const kit = [...ctx.gameData.starterKit, ...(spec.extraItems ?? [])];
  const spawn = (await ctx.world.spawnTile()) ?? (ctx.gameData.spawn ? tileOf(ctx.gameData.spawn.position) : { x: 0, z: 0 });
  try {
    return await createCharacter(ctx.db.sql, {
      accountId: spec.accountId,
      name: spec.name,
      isAgent: spec.isAgent,
      spawn,
      inventory: startingInventory(kit, items),
      levels: spec.levels as never,
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new HttpError(400, "NAME_TAKEN", "name: that name is taken");
    throw err;
  }
}

/** /api/v1/player: the caller's current character. */
export function playerRoutes(ctx: ServerContext) {
  const router = Router();
  const auth = requireAuth(ctx.config.jwtSecret, ctx.db.prisma);
  const prisma = ctx.db.prisma;

  router.get("/api/v1/player", auth, async (req, res) => {
    const q = parse(CharacterQuery, req.query);
    const c = await requireCharacter(prisma, authOf(req), q.characterId);
    res.json({ success: true, player: await playerView(ctx, c) });
  });

  // Create the account's first character, or change the current one's name and looks.
  router.post("/api/v1/player", auth, async (req, res) => {
    const who = authOf(req);
    const q = parse(CharacterQuery, req.query);
    const body = parse(PlayerBody, req.body);
    const existing = await currentCharacter(prisma, who, q.characterId);
    if (!existing) {
      const snap = await newCharacter(ctx, { accountId: who.sub, name: body.name });
      if (body.appearance) await prisma.character.update({ where: { id: snap.id }, data: { appearance: body.appearance } });
      const c = await prisma.character.findUniqueOrThrow({ where: { id: snap.id } });
      return res.status(201).json({ success: true, created: true, player: await playerView(ctx, c) });
    }
    try {
      await prisma.character.update({
        where: { id: existing.id },
        data: {
          ...(body.name ? { name: body.name } : {}),
          ...(body.appearance ? { appearance: { ...(existing.appearance as object), ...body.appearance } } : {}),
        },
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new HttpError(400, "NAME_TAKEN", "name: that name is taken");
      throw err;
    }
    // A player in the world is seen under the new name at once.
    if (body.name) await ctx.world.rename(existing.id, body.name);
    const c = await prisma.character.findUniqueOrThrow({ where: { id: existing.id } });
    res.json({ success: true, created: false, player: await playerView(ctx, c) });
  });
  return router;
}
