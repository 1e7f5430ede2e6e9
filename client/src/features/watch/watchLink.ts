/**
 * A watch link (`POST /api/agents/:agentId/watch` answers `watchUrl: "/#watch=<token>"`): the page
 * opened at it watches that agent. The token is a JWT whose payload names the agent; the page reads
 * the payload to know whom to ask for (the server checks the token at every call and at the join).
 */

/** What a watch token says of itself (its payload, read, not verified). */
export interface WatchClaims {
  agentId: string;
  characterId: string;
  /** When it expires, seconds since the epoch. */
  exp: number;
}

/** The token of a watch link's address (`#watch=<token>`), or null for any other address. */
export function watchTokenOf(hash: string): string | null {
  const m = /^#watch=([^&]*)/.exec(hash);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return m[1]!;
  }
}

/** The payload of a watch token, or an Error saying the link is not one. */
export function readWatchToken(token: string): WatchClaims {
  const payload = token.split(".")[1];
  let claims: Partial<WatchClaims> & { role?: unknown };
  try {
    const base64 = payload!
      .replace(/-/g, "+")
      .replace(/_/g, "/")
      .padEnd(Math.ceil(payload!.length / 4) * 4, "=");
    claims = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))));
  } catch {
    throw new Error("This watch link is not a valid one: ask the agent's owner for a new link");
  }
  if (claims.role !== "spectator" || typeof claims.agentId !== "string" || typeof claims.characterId !== "string" || typeof claims.exp !== "number")
    throw new Error("This link is not a watch link: ask the agent's owner for a new one");
  return { agentId: claims.agentId, characterId: claims.characterId, exp: claims.exp };
}
