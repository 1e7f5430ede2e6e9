import { Router } from "express";
import { z } from "zod";
import { requireAuth } from "../requireAuth.js";
import type { ServerContext } from "../../context.js";
import { HttpError } from "../errors.js";
import { authOf, ownedCharacter, parse } from "./access.js";

/** How long a voice token lets its holder join (they ask again for a new one). */
export const VOICE_TOKEN_TTL_S = 600;

export const Body = z.object({ characterId: z.string().min(1).max(128) }).strict();

/** The voice room of a world (by its id): everyone in the world talks in it. */
export const voiceRoomOf = (worldId: number) => `world-${worldId}`;

/**
 * POST /api/voice/token {characterId}: a LiveKit access token for the voice room of the world the
 * character is in (the first world's while it is in none)
 * (join, speak, listen; as the character, by its name), signed with VOICE_API_SECRET. The key and the
 * secret never leave the server; the answer carries the token, the room and VOICE_URL. 503
 * VOICE_NOT_CONFIGURED unless all three voice settings are set.
 */
export function voiceRoutes(ctx: ServerContext) {
  const router = Router();
  const auth = requireAuth(ctx.config.jwtSecret, ctx.db.prisma);
  const { apiKey, apiSecret, url } = ctx.config.voice;

  router.post("/api/voice/token", auth, async (req, res) => {
    if (!apiKey || !apiSecret || !url) throw new HttpError(503, "VOICE_NOT_CONFIGURED", "Voice chat is not set up on this server");
    const { characterId } = parse(Body, req.body);
    const character = await ownedCharacter(ctx.db.prisma, authOf(req), characterId);
    const room = voiceRoomOf((await ctx.world.worldOf(character.id)) ?? ctx.config.worlds[0]!.id);
    // LiveKit's SDK is loaded by the first token asked for, not by every server's start.
    const { AccessToken } = await import("livekit-server-sdk");
    const token = new AccessToken(apiKey, apiSecret, { identity: character.id, name: character.name, ttl: VOICE_TOKEN_TTL_S });
    token.addGrant({ room, roomJoin: true, canPublish: true, canSubscribe: true, canPublishData: false });
    res.json({ success: true, token: await token.toJwt(), url, room, identity: character.id, expiresIn: VOICE_TOKEN_TTL_S });
  });
  return router;
}
