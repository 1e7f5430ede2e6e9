import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { compactEvent } from "./observe.js";
import type { Heard, McpPlayer } from "./player.js";
import { toolError, toolResult } from "./results.js";

/**
 * What every tool answer of a session carries beside its own fields: the events the player was told
 * of since the session's previous answer, each in exactly one answer (a goblin that dies between two
 * calls is in the next answer, whichever tool it is), with what repeats folded (a fight's swings as
 * its totals, the xp of one skill as one line), and the player's vitals (health, prayer, where it
 * stands, free pack slots, who is attacking it).
 */

/** Ticks a blow keeps its striker among those attacking the player (about 5 s). */
export const UNDER_ATTACK_TICKS = 8;

/** One fight's swings in an answer: the player's blows at one foe and that foe's at the player. */
interface FightTotals {
  kind: "combat";
  with: string;
  fromTick: number;
  toTick: number;
  swings: number;
  hits: number;
  damageDealt: number;
  swingsTaken: number;
  damageTaken: number;
  /** The foe's health and the player's after the last blow of the answer's span. */
  foeHealth: number | null;
  health: number | null;
}

/**
 * The events as a model reads them: each `combat:hit` between the player and one foe folded into
 * that fight's totals (at the place of its first blow), each skill's `skill:xp` into one (the
 * gains added, the last total and level), everything else as it came.
 */
export function foldEvents(events: readonly Heard[], selfId: string | undefined): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const fights = new Map<string, FightTotals>();
  const xp = new Map<string, Record<string, unknown>>();
  for (const m of events) {
    if (m.type === "combat:hit" && selfId && (m.data.attackerId === selfId || m.data.targetId === selfId)) {
      const mine = m.data.attackerId === selfId;
      const foe: string = mine ? m.data.targetId : m.data.attackerId;
      let f = fights.get(foe);
      if (!f) {
        f = {
          kind: "combat",
          with: foe,
          fromTick: m.tick,
          toTick: m.tick,
          swings: 0,
          hits: 0,
          damageDealt: 0,
          swingsTaken: 0,
          damageTaken: 0,
          foeHealth: null,
          health: null,
        };
        fights.set(foe, f);
        out.push(f as unknown as Record<string, unknown>);
      }
      f.toTick = m.tick;
      if (mine) {
        f.swings++;
        if (m.data.damage > 0) f.hits++;
        f.damageDealt += m.data.damage;
        f.foeHealth = m.data.targetHealth;
      } else {
        f.swingsTaken++;
        f.damageTaken += m.data.damage;
        f.health = m.data.targetHealth;
      }
      continue;
    }
    if (m.type === "skill:xp") {
      const seen = xp.get(m.data.skill);
      if (seen) {
        seen.gained = Math.round(((seen.gained as number) + m.data.gained) * 10) / 10;
        seen.xp = m.data.xp;
        seen.level = m.data.level;
        seen.times = (seen.times as number) + 1;
        seen.toTick = m.tick;
        continue;
      }
      const first = { ...compactEvent(m), times: 1, toTick: m.tick };
      xp.set(m.data.skill, first);
      out.push(first);
      continue;
    }
    out.push(compactEvent(m));
  }
  return out;
}

/** The player's state in one line's worth: what a model needs to see its own danger. */
export function vitalsOf(p: McpPlayer): Record<string, unknown> | null {
  const self = p.sight.self;
  if (!self) return null;
  const attackers = [...p.attackedBy]
    .filter(
      ([id, tick]) =>
        p.sight.tick - tick <= UNDER_ATTACK_TICKS && (p.sight.npcs.get(id)?.state ?? "gone") !== "dead" && (p.sight.npcs.has(id) || p.sight.players.has(id)),
    )
    .map(([id]) => ({ id, name: p.sight.npcs.get(id)?.name ?? (p.sight.players.get(id) as { name?: string } | undefined)?.name ?? id }));
  return {
    health: self.health,
    maxHealth: self.maxHealth,
    prayer: self.prayer ? { points: self.prayer.points, max: self.prayer.max } : null,
    /** Run energy in percent (player:sync's vars.runEnergy, hundredths of a percent), when the server keeps it. */
    runEnergy: typeof self.vars.runEnergy === "number" ? Math.floor(self.vars.runEnergy / 100) : null,
    position: { x: self.tile.x, z: self.tile.z },
    freeSlots: p.sight.freeSlots(),
    underAttackBy: attackers,
  };
}

/** A tool's answer with the events since the session's previous answer and the vitals added. */
export function withTold(p: McpPlayer, result: CallToolResult): CallToolResult {
  const body = (result.structuredContent ?? {}) as Record<string, unknown>;
  const { error, ...extra } = body as { error?: { code: string; message: string } };
  // An answer this cannot add to keeps the events for the next one.
  if (result.isError && !error) return result;
  const { events, dropped } = p.takeEvents();
  const told = {
    events: foldEvents(events, p.sight.self?.id),
    ...(dropped ? { eventsDropped: dropped } : {}),
    vitals: vitalsOf(p),
  };
  return result.isError ? toolError(error!.code, error!.message, { ...extra, ...told }) : toolResult({ ...body, ...told });
}
