import type { Character, PrismaClient } from "@prisma/client";
import type { Request } from "express";
import { z } from "zod";
import type { TokenClaims } from "../../auth/tokens.js";
import { mayDo, type StaffAct, type StaffRole } from "../../game/staff.js";
import { HttpError } from "../errors.js";

/**
 * What every /api route shares (its handlers are plain async functions: Express 5 hands a
 * rejected promise to the error handler, so a thrown HttpError becomes its documented answer): request
 * bodies and parameters validated with zod (400 naming the field), and who may act on what
 * (401 without a valid token, 403 for someone else's things, 404 for unknown ones).
 */

/** Validate input with a zod schema: 400 INVALID_PAYLOAD naming the first bad field. */
export function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const r = schema.safeParse(input ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue.path.length ? issue.path.join(".") : "body";
  throw new HttpError(400, "INVALID_PAYLOAD", `${field}: ${issue.message}`);
}

/** The verified token claims (requireAuth ran before). */
export function authOf(req: Request): TokenClaims {
  if (!req.auth) throw new HttpError(401, "UNAUTHORIZED", "A Bearer token is required");
  return req.auth;
}

export const isAdmin = (auth: TokenClaims) => auth.role === "admin";

/** The caller's staff role (requireAuth read it from the database), refused 403 FORBIDDEN unless it may do `act`. */
export function refuseUnlessMay(req: Request, act: StaffAct): StaffRole {
  const role = req.staffRole ?? "player";
  if (!mayDo(role, act)) throw new HttpError(403, "FORBIDDEN", `This needs a staff account (${act}); your role is ${role}`);
  return role;
}

/**
 * A character the caller may act on: its own (an agent token only its one character), or any
 * for an admin. Unknown → 404; someone else's → 403.
 */
export async function ownedCharacter(prisma: PrismaClient, auth: TokenClaims, characterId: string): Promise<Character> {
  const c = await prisma.character.findUnique({ where: { id: characterId } });
  if (!c) throw new HttpError(404, "CHARACTER_NOT_FOUND", "No such character");
  if (isAdmin(auth)) return c;
  if (c.accountId !== auth.sub || (auth.characterId && auth.characterId !== c.id)) {
    throw new HttpError(403, "FORBIDDEN", "That character belongs to someone else");
  }
  return c;
}

/**
 * The caller's current character: the one named (`characterId`, which must be its own), the
 * agent token's character, or the account's first; null when the account has none.
 */
export async function currentCharacter(prisma: PrismaClient, auth: TokenClaims, characterId?: string): Promise<Character | null> {
  const wanted = characterId ?? auth.characterId;
  if (wanted) return ownedCharacter(prisma, auth, wanted);
  return prisma.character.findFirst({ where: { accountId: auth.sub }, orderBy: { createdAt: "asc" } });
}

/** Like currentCharacter, but 404 NO_CHARACTER when the account has none yet. */
export async function requireCharacter(prisma: PrismaClient, auth: TokenClaims, characterId?: string): Promise<Character> {
  const c = await currentCharacter(prisma, auth, characterId);
  if (!c) throw new HttpError(404, "NO_CHARACTER", "This account has no character yet");
  return c;
}

/** `?characterId=` (optional) on any route acting as one of the caller's characters. */
export const CharacterQuery = z.object({ characterId: z.string().min(1).max(128).optional() }).passthrough();
