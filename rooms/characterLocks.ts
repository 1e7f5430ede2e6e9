import { ServerError, type Presence } from "@colyseus/core";
import type { Logger } from "pino";
import { turnOf } from "../src/game/turns.js";
import { PresenceClaims } from "./cluster/presenceClaims.js";

/**
 * One character, one room: a lock per character in Colyseus's presence, held by the room the
 * character is live in.
 *
 * - The lock is a presence claim (rooms/cluster/presenceClaims.ts) under `character:<id>:lock`, held by
 *   the room's id. It expires after `ttlS` unless its holder refreshes it, so a dead process's
 *   characters are free again.
 * - A room that finds the character held elsewhere asks the holder, on the holder's own channel,
 *   to take its session over (save it, close it, release the lock), and waits for the lock.
 */

export const LOCK_TTL_S = 15;
/** How long a join waits for another room to let a character go. */
export const LOCK_WAIT_MS = 20_000;
const POLL_MS = 50;
const ASK_AGAIN_MS = 2_000;

export const lockKey = (characterId: string) => `character:${characterId}:lock`;
/** The characters' locks, by character id. */
export const characterClaims = (presence: Presence, ttlS = LOCK_TTL_S) => new PresenceClaims(presence, lockKey, ttlS);
export const takeoverChannel = (roomId: string) => `world:${roomId}:takeover`;

export class CharacterBusyError extends Error {
  constructor(readonly characterId: string) {
    super("This character is live in another world and was not let go in time; try again shortly");
  }
}

export class CharacterLocks {
  private readonly claims: PresenceClaims<string>;

  constructor(
    private readonly presence: Presence,
    /** The room holding the locks it takes. */
    readonly holder: string,
    private readonly options: { ttlS?: number; waitMs?: number } = {},
  ) {
    this.claims = characterClaims(presence, options.ttlS);
  }

  /** Who holds the character now (undefined: nobody, or the winner has not named itself yet). */
  holderOf(characterId: string): Promise<string | undefined> {
    return this.claims.holderOf(characterId);
  }

  /** One try: true when this room holds the character's lock now (newly or already). */
  tryAcquire(characterId: string): Promise<boolean> {
    return this.claims.claim(characterId, this.holder);
  }

  /**
   * Take the character's lock for this room, asking its holder to let it go when it is held
   * elsewhere. Resolves with whether another room had it (its save is then written).
   */
  async acquire(characterId: string): Promise<{ tookOver: boolean }> {
    if (await this.tryAcquire(characterId)) return { tookOver: false };
    const deadline = Date.now() + (this.options.waitMs ?? LOCK_WAIT_MS);
    let askedAt = 0;
    while (Date.now() < deadline) {
      if (Date.now() - askedAt >= ASK_AGAIN_MS) {
        const holder = await this.holderOf(characterId);
        if (holder && holder !== this.holder) this.presence.publish(takeoverChannel(holder), { characterId, by: this.holder });
        askedAt = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      if (await this.tryAcquire(characterId)) return { tookOver: true };
    }
    throw new CharacterBusyError(characterId);
  }

  /** Let the character go (only if this room holds it). */
  release(characterId: string): Promise<void> {
    return this.claims.release(characterId, this.holder);
  }

  /** Keep the locks of the characters live here from expiring. */
  refresh(characterIds: Iterable<string>): Promise<void> {
    return this.claims.refresh(characterIds);
  }

  /** Run `handler` when another room asks this one to let a character go. */
  async listen(handler: (characterId: string) => void): Promise<() => void> {
    const callback = (message: { characterId?: unknown }) => {
      if (typeof message?.characterId === "string") handler(message.characterId);
    };
    await this.presence.subscribe(takeoverChannel(this.holder), callback);
    return () => this.presence.unsubscribe(takeoverChannel(this.holder), callback);
  }
}

/**
 * A room's side of the locks: the characters it holds stay locked while they are live there or
 * while any join or leave of theirs is still running (a leave keeps its lock until its save is
 * written), and are let go when neither is true any more.
 */
export class RoomCharacterLocks {
  /** Joins and leaves in progress per character. */
  private readonly users = new Map<string, number>();

  constructor(
    readonly locks: CharacterLocks,
    /** Is the character live in this room now? */
    private readonly isLive: (characterId: string) => boolean,
    private readonly logger: Logger,
  ) {}

  /** Run a join or leave of the character with its lock kept for the whole of it. */
  async hold<T>(characterId: string, work: () => Promise<T>): Promise<T> {
    this.users.set(characterId, (this.users.get(characterId) ?? 0) + 1);
    try {
      return await work();
    } finally {
      const n = (this.users.get(characterId) ?? 1) - 1;
      if (n > 0) this.users.set(characterId, n);
      else this.users.delete(characterId);
      if (n <= 0 && !this.isLive(characterId)) {
        this.locks.release(characterId).catch((err) => this.logger.warn({ err, characterId }, "could not release a character lock"));
      }
    }
  }

  /** Take the character's lock (another room holding it lets it go first); 409 when it does not in time. */
  async acquire(characterId: string) {
    try {
      return await this.locks.acquire(characterId);
    } catch (err) {
      if (err instanceof CharacterBusyError) throw new ServerError(409, err.message);
      throw err;
    }
  }

  /**
   * Keep the locks of the characters live here, or joining or leaving, from expiring: each call
   * refreshes those whose turn `turn` is out of `turns` (by their id), so called every tick with
   * the tick as the turn, each lock is refreshed once every `turns` ticks and no tick refreshes
   * them all (with thousands online, that was one tick's work every few seconds).
   */
  refresh(live: Iterable<string>, turn = 0, turns = 1) {
    const now = turn % turns;
    const ids = new Set<string>();
    for (const id of live) if (turnOf(id, turns) === now) ids.add(id);
    for (const id of this.users.keys()) if (turnOf(id, turns) === now) ids.add(id);
    if (ids.size) this.locks.refresh(ids).catch((err) => this.logger.warn({ err }, "could not refresh character locks"));
  }
}
