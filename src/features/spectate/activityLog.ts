import { matchMaker, type Presence } from "@colyseus/core";
import type { ActivityEntry, ActivityKind, AgentActivity } from "../../agentActivity.js";

/** Lines kept per character. */
export const ACTIVITY_KEPT = 100;
/** Characters whose lines are kept (the least lately written is forgotten first). */
export const ACTIVITY_CHARACTERS = 5000;
/** The longest line kept. */
export const ACTIVITY_TEXT_MAX = 280;

const CHANNEL = "agent:activity";
const seqKey = (characterId: string) => `agent:activity:seq:${characterId}`;

interface Published {
  characterId: string;
  entry: ActivityEntry;
}

/**
 * The agents' activity, shared by every process of a cluster through the Colyseus presence (Redis
 * in a cluster): a line's number comes from a counter there and the line is published on one
 * channel; every process keeps the last ACTIVITY_KEPT lines of each character it heard of, so any
 * process answers the feed. A process that started later holds the lines written since.
 */
export class ActivityLog implements AgentActivity {
  private readonly lines = new Map<string, ActivityEntry[]>();
  private readonly followers = new Map<string, Set<(entry: ActivityEntry) => void>>();
  /** The presence listened to, and the listening (made again when the server's presence is another: a new server in the same process). */
  private listening: { presence: Presence; ready: Promise<unknown> } | undefined;
  private readonly heard = (message: unknown) => this.take(message as Published);

  record(characterId: string, kind: ActivityKind, text: string): void {
    const presence = this.presence();
    const line = text.length > ACTIVITY_TEXT_MAX ? `${text.slice(0, ACTIVITY_TEXT_MAX - 1)}…` : text;
    void Promise.resolve(presence.incr(seqKey(characterId)))
      .then((seq) => {
        void presence.expire(seqKey(characterId), 7 * 24 * 3600);
        const entry: ActivityEntry = { seq, at: new Date().toISOString(), kind, text: line };
        presence.publish(CHANNEL, { characterId, entry } satisfies Published);
      })
      .catch(() => {}); // a line lost while Redis is away is only a line
  }

  recent(characterId: string, since?: number): ActivityEntry[] {
    this.presence();
    const kept = this.lines.get(characterId) ?? [];
    return since === undefined ? [...kept] : kept.filter((e) => e.seq > since);
  }

  async listen(): Promise<void> {
    this.presence();
    await this.listening!.ready;
  }

  async follow(characterId: string, fn: (entry: ActivityEntry) => void): Promise<() => void> {
    await this.listen();
    let set = this.followers.get(characterId);
    if (!set) this.followers.set(characterId, (set = new Set()));
    set.add(fn);
    return () => {
      set.delete(fn);
      if (set.size === 0 && this.followers.get(characterId) === set) this.followers.delete(characterId);
    };
  }

  /** The server's presence, listened to (again, when it is a new one). */
  private presence(): Presence {
    const presence = matchMaker.presence;
    if (this.listening?.presence !== presence) {
      if (this.listening) this.listening.presence.unsubscribe(CHANNEL, this.heard);
      this.lines.clear();
      this.listening = { presence, ready: Promise.resolve(presence.subscribe(CHANNEL, this.heard)) };
    }
    return presence;
  }

  private take({ characterId, entry }: Published) {
    let kept = this.lines.get(characterId);
    if (kept) this.lines.delete(characterId);
    else {
      kept = [];
      if (this.lines.size >= ACTIVITY_CHARACTERS) this.lines.delete(this.lines.keys().next().value!);
    }
    this.lines.set(characterId, kept);
    // In order of their numbers (two processes' lines may cross on the way).
    let i = kept.length;
    while (i > 0 && kept[i - 1].seq > entry.seq) i--;
    kept.splice(i, 0, entry);
    if (kept.length > ACTIVITY_KEPT) kept.splice(0, kept.length - ACTIVITY_KEPT);
    for (const fn of this.followers.get(characterId) ?? []) fn(entry);
  }
}
