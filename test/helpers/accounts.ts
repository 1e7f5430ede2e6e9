import assert from "node:assert/strict";
import { rest } from "./rest.js";
import type { TestServer } from "./server.js";
import { guestToken } from "./worldClient.js";
import { wsConnect, type WsPlayer } from "./wsClient.js";

let names = 0;

/**
 * A guest account with a character of a fresh name (`prefix` and a number), its role set in the
 * database; `registered`: marked as an identity provider's account, not a guest.
 */
export async function accountWithCharacter(
  server: TestServer,
  prefix: string,
  role: "player" | "moderator" | "admin" = "player",
  options: { registered?: boolean } = {},
) {
  const who = await guestToken(server);
  const name = `${prefix}${++names}`;
  const made = await rest(server, "POST", "/api/character", who.token, { name });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const data = { ...(role !== "player" ? { roles: [role] } : {}), ...(options.registered ? { isGuest: false } : {}) };
  if (Object.keys(data).length) await server.ctx.db.prisma.user.update({ where: { id: who.accountId }, data });
  return { ...who, name, characterId: made.body.character.id as string };
}

/** The character played over /ws: once it is authenticated and has its first player:sync. */
export async function playOverWs(server: TestServer, who: { token: string; characterId: string }): Promise<WsPlayer> {
  const ws = await wsConnect(server.port, `?token=${encodeURIComponent(who.token)}&characterId=${who.characterId}`);
  await ws.next("authenticated");
  await ws.next("player:sync");
  return ws;
}
