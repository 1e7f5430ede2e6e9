import type { Presence } from "@colyseus/core";

/**
 * One character, one room: a lock per character in Colyseus's presence (this process's memory,
 * or Redis in a cluster, with the same code), held by the room the character is live in.
 *
 * - The lock is a presence hash `character:<id>:lock` with a counter `n` and the `holder` room id.
 *   Taking it is an atomic increment: the one whose increment gives 1 holds it. It expires after
 *   `ttlS` unless its holder refreshes it, so a dead process's characters are free again.
 * - A room that finds the character held elsewhere asks the holder, on the holder's own channel,
 *   to take its session over (save it, close it, release the lock), and waits for the lock.
 */

export const LOCK_TTL_S = 15;
/** How long a join waits for another room to let a character go. */
export const LOCK_WAIT_MS = 20_000;
const POLL_MS = 50;
const ASK_AGAIN_MS = 2_000;

export const lockKey = (characterId: string) => `character:${characterId}:lock`;
export const takeoverChannel = (roomId: string) => `world:${roomId}:takeover`;

export class CharacterBusyError extends Error {
  constructor(readonly characterId: string) {
    super("This character is live in another world and was not let go in time; try again shortly");
  }
}

export class CharacterLocks {
  constructor(
    private readonly presence: Presence,
    /** The room holding the locks it takes. */
    readonly holder: string,
    private readonly options: { ttlS?: number; waitMs?: number } = {},
  ) {}

  private get ttl() {
    return this.options.ttlS ?? LOCK_TTL_S;
  }

  /** Who holds the character now (undefined: nobody, or the winner has not named itself yet). */
  async holderOf(characterId: string): Promise<string | undefined> {
    return (await this.presence.hget(lockKey(characterId), "holder")) ?? undefined;
  }

  /** One try: true when this room holds the character's lock now (newly or already). */
  async tryAcquire(characterId: string): Promise<boolean> {
    const key = lockKey(characterId);
    // A key without a counter (a refresh that raced a release) is free.
    if ((await this.presence.hget(key, "n")) !== null) return (await this.holderOf(characterId)) === this.holder;
    const n = await this.presence.hincrbyex(key, "n", 1, this.ttl);
    if (n !== 1) return false; // another room won the race
    await this.presence.hset(key, "holder", this.holder);
    return true;
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
  async release(characterId: string): Promise<void> {
    if ((await this.holderOf(characterId)) === this.holder) this.presence.del(lockKey(characterId));
  }

  /** Keep the locks of the characters live here from expiring. */
  async refresh(characterIds: Iterable<string>): Promise<void> {
    await Promise.all([...characterIds].map((id) => this.presence.hincrbyex(lockKey(id), "refreshed", 1, this.ttl)));
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
