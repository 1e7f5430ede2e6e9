/**
 * The journey benchmark's check that every event reaches exactly one answer (bench/mcpJourney.ts):
 * what the server told the MCP session's player, tapped in-process on the room's client, set
 * against the `events` of every tool answer the client got.
 *
 * The tap wraps `send` on the MCP session's room client (src/mcp/player.ts's McpPlayer, an
 * in-memory room client): every message a room sends a player goes through its client's `send`
 * (rooms/WorldRoom.ts, rooms/roomOps.ts, the desks). The view's own updates (`world:update`,
 * `player:sync`, `store:update`) and the agent runtime's `goalOverride` are state, not events: they
 * reach a model as observe's and the vitals' fields, so they are counted apart.
 *
 * An answer's entries are matched to what was told, oldest first, as docs/MCP.md says answers fold
 * them: a `combat` entry stands for `swings` blows of the player at `with` and `swingsTaken` blows
 * of `with` at the player; a `skill:xp` entry with `times` for that many xp messages of its skill;
 * any other entry for one message of its kind at its tick whose every field it repeats (the fields
 * a message has and the entry leaves out are listed, e.g. a timestamp).
 */

/** The view's own updates: state, not events. */
export const VIEW_STATE: ReadonlySet<string> = new Set(["world:update", "player:sync", "store:update", "goalOverride"]);

/** One message the room sent the player. */
export interface Told {
  type: string;
  data: any;
  /** The world tick the player's view stood at when it came (what the MCP player stamps an event with). */
  tick: number;
  /** performance.now() when it was sent. */
  at: number;
}

/** One tool answer as the client got it. */
export interface Answered {
  call: number;
  tool: string;
  events: Array<Record<string, any>> | undefined;
  eventsDropped?: number;
  /** performance.now() when the client had it. */
  at: number;
}

/** The tap: what the room sent each McpPlayer, by the client it was sent to. */
export class EventTap {
  private readonly told = new Map<object, Told[]>();
  private readonly stateCounts = new Map<object, Map<string, number>>();
  private restore: (() => void) | undefined;

  /** Wrap `send` on the prototype of the MCP session's room client (`McpPlayer` of the checkout's src/mcp/player.ts). */
  install(clientClass: { prototype: any }) {
    const proto = clientClass.prototype;
    const own = Object.prototype.hasOwnProperty.call(proto, "send");
    const original = proto.send as (this: any, type: string, data: unknown, ...rest: unknown[]) => unknown;
    const tap = this;
    proto.send = function (this: any, type: string, data: unknown, ...rest: unknown[]) {
      const result = original.call(this, type, data, ...rest);
      if (VIEW_STATE.has(type)) {
        const counts = tap.stateCounts.get(this) ?? new Map<string, number>();
        counts.set(type, (counts.get(type) ?? 0) + 1);
        tap.stateCounts.set(this, counts);
      } else {
        const list = tap.told.get(this) ?? [];
        // A copy as it stood when sent (JSON, as the answer carries it).
        list.push({ type, data: data === undefined ? {} : JSON.parse(JSON.stringify(data)), tick: this.sight?.tick ?? 0, at: performance.now() });
        tap.told.set(this, list);
      }
      return result;
    };
    this.restore = () => {
      if (own) proto.send = original;
      else delete proto.send;
    };
  }

  uninstall() {
    this.restore?.();
  }

  /** The room clients heard so far. */
  clients(): object[] {
    return [...new Set([...this.told.keys(), ...this.stateCounts.keys()])];
  }

  toldTo(client: object): Told[] {
    return this.told.get(client) ?? [];
  }

  stateTo(client: object): Record<string, number> {
    return Object.fromEntries(this.stateCounts.get(client) ?? []);
  }
}

/** What the check found. */
export interface LedgerReport {
  told: number;
  inAnswers: number;
  missed: Array<{ type: string; tick: number; data: unknown }>;
  /** Entries (or parts of a folded entry) that stand for a message already in an earlier entry. */
  duplicated: Array<{ call: number; tool: string; entry: unknown; why: string }>;
  /** Entries that stand for nothing the player was told. */
  untold: Array<{ call: number; tool: string; entry: unknown; why: string }>;
  /** Entries whose totals do not add up to the messages they fold (damage, xp). */
  mismatched: Array<{ call: number; tool: string; entry: unknown; why: string }>;
  /** Messages that reached an answer before one told earlier did. */
  reordered: number;
  /** Told after the last answer (no answer could carry them yet). */
  afterLastAnswer: number;
  eventsDropped: number;
  /** Fields of the messages the answers' entries leave out, with how often. */
  fieldsLeftOut: Record<string, number>;
  /** Answers with no `events` field at all. */
  answersWithoutEvents: number;
  byKind: Record<string, number>;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Match the answers' events to what was told (see the file's comment). `selfId`: the character's id (the blows' attacker or target). */
export function checkLedger(told: readonly Told[], answers: readonly Answered[], selfId: string): LedgerReport {
  const claimedBy = new Array<number>(told.length).fill(-1);
  const report: LedgerReport = {
    told: 0,
    inAnswers: 0,
    missed: [],
    duplicated: [],
    untold: [],
    mismatched: [],
    reordered: 0,
    afterLastAnswer: 0,
    eventsDropped: 0,
    fieldsLeftOut: {},
    answersWithoutEvents: 0,
    byKind: {},
  };
  const lastAt = answers.length ? answers[answers.length - 1].at : -Infinity;
  for (const t of told) if (t.at <= lastAt) report.told++;
  for (const t of told) report.byKind[t.type] = (report.byKind[t.type] ?? 0) + 1;

  /** The earliest messages told before `at` that `fits`, unclaimed first; `want` of them. */
  const claim = (a: Answered, want: number, fits: (t: Told) => boolean, entry: unknown, what: string): number[] => {
    const got: number[] = [];
    for (let i = 0; i < told.length && got.length < want; i++) if (claimedBy[i] < 0 && told[i].at <= a.at && fits(told[i])) got.push(i);
    for (const i of got) claimedBy[i] = a.call;
    const short = want - got.length;
    if (short > 0) {
      const earlier = told.filter((t, i) => claimedBy[i] >= 0 && !got.includes(i) && fits(t)).length;
      const note = { call: a.call, tool: a.tool, entry, why: `${short} of ${want} ${what}` };
      if (earlier >= short) report.duplicated.push({ ...note, why: `${note.why} already in an earlier answer` });
      else report.untold.push({ ...note, why: `${note.why} never told` });
    }
    return got;
  };

  for (const a of answers) {
    if (!a.events) {
      report.answersWithoutEvents++;
      continue;
    }
    report.eventsDropped += a.eventsDropped ?? 0;
    for (const e of a.events) {
      if (e.kind === "combat" && typeof e.with === "string") {
        const inTicks = (t: Told) => t.tick >= e.fromTick && t.tick <= e.toTick;
        const dealt = claim(
          a,
          e.swings,
          (t) => t.type === "combat:hit" && t.data.attackerId === selfId && t.data.targetId === e.with && inTicks(t),
          e,
          "blows dealt",
        );
        const taken = claim(
          a,
          e.swingsTaken,
          (t) => t.type === "combat:hit" && t.data.attackerId === e.with && t.data.targetId === selfId && inTicks(t),
          e,
          "blows taken",
        );
        const sumOf = (is: number[]) => is.reduce((n, i) => n + (told[i].data.damage ?? 0), 0);
        const hits = dealt.filter((i) => told[i].data.damage > 0).length;
        if (sumOf(dealt) !== e.damageDealt || sumOf(taken) !== e.damageTaken || hits !== e.hits)
          report.mismatched.push({
            call: a.call,
            tool: a.tool,
            entry: e,
            why: `told: ${hits} hits, ${sumOf(dealt)} dealt, ${sumOf(taken)} taken`,
          });
        report.inAnswers += dealt.length + taken.length;
        continue;
      }
      if (e.kind === "skill:xp" && typeof e.times === "number") {
        const got = claim(
          a,
          e.times,
          (t) => t.type === "skill:xp" && t.data.skill === e.skill && t.tick >= e.tick && t.tick <= e.toTick,
          e,
          `${e.skill} xp lines`,
        );
        const gained = Math.round(got.reduce((n, i) => n + told[i].data.gained, 0) * 10) / 10;
        const last = got.length ? told[got[got.length - 1]].data : undefined;
        if (Math.abs(gained - e.gained) > 0.05 || (last && (last.xp !== e.xp || last.level !== e.level)))
          report.mismatched.push({ call: a.call, tool: a.tool, entry: e, why: `told: ${gained} xp gained, last total ${last?.xp}` });
        report.inAnswers += got.length;
        continue;
      }
      const { kind, tick, ...fields } = e;
      const got = claim(
        a,
        1,
        (t) => t.type === kind && (tick === undefined || t.tick === tick) && Object.entries(fields).every(([k, v]) => same(t.data[k], v)),
        e,
        kind,
      );
      for (const i of got)
        for (const k of Object.keys(told[i].data)) if (!(k in fields)) report.fieldsLeftOut[`${kind}.${k}`] = (report.fieldsLeftOut[`${kind}.${k}`] ?? 0) + 1;
      report.inAnswers += got.length;
    }
  }
  let latest = -1;
  told.forEach((t, i) => {
    if (claimedBy[i] < 0) {
      if (t.at <= lastAt) report.missed.push({ type: t.type, tick: t.tick, data: t.data });
      else report.afterLastAnswer++;
      return;
    }
    if (claimedBy[i] < latest) report.reordered++;
    latest = Math.max(latest, claimedBy[i]);
  });
  return report;
}
