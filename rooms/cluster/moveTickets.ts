import { randomBytes } from "node:crypto";
import type { Presence } from "@colyseus/core";
import type { Role } from "../../src/auth/tokens.js";

/** How long a moved session's resume token works: long enough for its world to run again elsewhere. */
export const MOVE_TICKET_TTL_S = 60;

/** What a moved session was: whom it played and where. */
export interface MoveTicket {
  accountId: string;
  characterId: string;
  world: number;
  /** Its token's claims beside the account (role, guest, an agent token's character): the session joins again with a token of the same. */
  claims: { role: Role; guest?: boolean; characterId?: string };
}

const key = (token: string) => `move:${token}`;
const usedKey = (token: string) => `move:${token}:used`;

/**
 * The resume tokens of the sessions a moving world let go (rooms/worldMove.ts): kept in Colyseus's
 * presence (Redis in a cluster), so any process of the cluster takes one. A token is 256 random
 * bits, works once, and only for MOVE_TICKET_TTL_S.
 */
export class MoveTickets {
  constructor(private readonly presence: Presence) {}

  async issue(ticket: MoveTicket): Promise<string> {
    const token = randomBytes(32).toString("base64url");
    await this.presence.setex(key(token), JSON.stringify(ticket), MOVE_TICKET_TTL_S);
    return token;
  }

  /** The ticket of a token still good, without using it up (a join may still be redirected elsewhere). */
  async peek(token: string): Promise<MoveTicket | undefined> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
    const text = (await this.presence.get(key(token))) as string | null;
    if (!text || (await this.presence.hget(usedKey(token), "n")) != null) return undefined;
    return JSON.parse(text) as MoveTicket;
  }

  /**
   * Take the token for a join (true for the one caller that did: two sockets racing with one token,
   * one wins); the join then either `forget`s it (done) or `release`s it (redirected, or the world
   * not running yet: the token is good again).
   */
  async use(token: string): Promise<boolean> {
    return (await this.presence.hincrbyex(usedKey(token), "n", 1, MOVE_TICKET_TTL_S)) === 1;
  }

  async release(token: string): Promise<void> {
    await this.presence.del(usedKey(token));
  }

  async forget(token: string): Promise<void> {
    await this.presence.del(key(token));
  }
}
