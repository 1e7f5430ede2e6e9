import type { Presence } from "@colyseus/core";

/**
 * Claims in Colyseus's presence (this process's memory, or Redis in a cluster, with the same code):
 * who holds a thing that only one may hold at a time. The one shape of the character locks
 * (rooms/characterLocks.ts), the world claims (rooms/cluster/worldHosting.ts) and the agent leases
 * (src/agents/leases.ts).
 *
 * A claim is a presence hash under its key (the caller's: several processes of a cluster share
 * these keys, so they never change) with a counter `n` and the `holder`. Taking it is an atomic
 * increment of `n`: the one whose increment gives 1 holds it, and names itself in `holder`. It
 * expires `ttlS` after it was taken or last refreshed, so a dead holder's claims are free again;
 * only its holder releases it early.
 */
export class PresenceClaims<Id> {
  constructor(
    private readonly presence: Presence,
    private readonly keyOf: (id: Id) => string,
    private readonly ttlS: number,
  ) {}

  /** Who holds the claim now (undefined: nobody, or the winner has not named itself yet). */
  async holderOf(id: Id): Promise<string | undefined> {
    return (await this.presence.hget(this.keyOf(id), "holder")) ?? undefined;
  }

  /** One try for `holder`: true when it holds the claim now (newly or already). */
  async claim(id: Id, holder: string): Promise<boolean> {
    const key = this.keyOf(id);
    // A key without a counter (a refresh that raced a release) is free.
    if ((await this.presence.hget(key, "n")) != null) return (await this.holderOf(id)) === holder;
    const n = await this.presence.hincrbyex(key, "n", 1, this.ttlS);
    if (n !== 1) return false; // another won the race
    await this.presence.hset(key, "holder", holder);
    return true;
  }

  /** Keep these claims from expiring (their holder's). */
  async refresh(ids: Iterable<Id>): Promise<void> {
    await Promise.all([...ids].map((id) => this.presence.hincrbyex(this.keyOf(id), "refreshed", 1, this.ttlS)));
  }

  /** Free the claim if `holder` holds it: its own, let go, or a holder found gone. */
  async release(id: Id, holder: string): Promise<void> {
    if ((await this.holderOf(id)) === holder) await this.presence.del(this.keyOf(id));
  }
}
