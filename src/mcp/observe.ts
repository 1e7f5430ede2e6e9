import { chebyshev } from "../game/movement.js";
import type { GameData } from "../manifests/index.js";
import { goalView } from "../agents/goals.js";
import type { Heard, McpPlayer } from "./player.js";

/** How many of each kind of thing near the player an observe lists (the nearest). */
export const NEAR_LIMIT = 12;

/** An event as a model reads it: its kind and payload, without what says nothing (timestamps, seats). */
export function compactEvent(m: Heard): Record<string, unknown> {
  const data = { ...(m.data ?? {}) };
  delete data.timestamp;
  delete data.reservation;
  return { kind: m.type, tick: m.tick, ...data };
}

const nameOf = (data: GameData, itemId: string) => data.items.get(itemId)?.name ?? itemId;

/**
 * The compact, model-friendly view of an observe: where the player stands and how it is, its
 * skills, pack and worn items, the nearest things in view with their ids and distances (what the
 * tools take as targets), what is open (a conversation, a store, a bank in reach, a trade, a duel),
 * the goal the runtime plays for it and the quests under way (the events since the previous answer
 * come with every answer: src/mcp/answers.ts).
 */
export function observation(p: McpPlayer, data: GameData): Record<string, unknown> {
  const v = p.sight;
  const self = v.self;
  if (!self) return { tick: v.tick, you: null };
  const here = self.tile;
  const near = <T extends { x: number; z: number }>(things: Iterable<T>, shape: (t: T, d: number) => Record<string, unknown>) =>
    [...things]
      .map((t) => ({ t, d: chebyshev(here, t) }))
      .sort((a, b) => a.d - b.d)
      .slice(0, NEAR_LIMIT)
      .map(({ t, d }) => shape(t, d));
  const players = [...v.players.values()].filter((o) => o.id !== self.id) as Array<Record<string, any> & { id: string; x: number; z: number }>;
  return {
    tick: v.tick,
    you: {
      id: self.id,
      name: self.name,
      x: here.x,
      z: here.z,
      health: self.health,
      maxHealth: self.maxHealth,
      combatLevel: self.combatLevel,
      prayer: self.prayer ?? null,
      autocast: self.autocast ?? null,
      vars: self.vars,
      action: self.action,
      doing: self.doing || null,
      moving: self.moving,
    },
    skills: Object.fromEntries(Object.entries(self.skills).map(([k, s]) => [k, { level: s.level, xp: Math.floor(s.xp) }])),
    pack: self.inventory.map((s) => ({
      slot: s.slot,
      itemId: s.itemId,
      name: nameOf(data, s.itemId),
      quantity: s.quantity,
      ...(s.locked ? { locked: true } : {}),
    })),
    freeSlots: v.freeSlots(),
    worn: Object.fromEntries(
      Object.entries(self.equipment)
        .filter(([, e]) => e)
        .map(([slot, e]) => [slot, { itemId: e!.itemId, name: nameOf(data, e!.itemId), quantity: e!.quantity }]),
    ),
    near: {
      players: near(players, (o, d) => ({ id: o.id, name: o.name, distance: d, x: o.x, z: o.z, combatLevel: o.combatLevel, isAgent: o.isAgent === true })),
      npcs: near(
        [...v.npcs.values()].filter((n) => n.state !== "dead"),
        (n, d) => ({ id: n.id, npcId: n.npcId, name: n.name, distance: d, x: n.x, z: n.z, health: n.health, state: n.state }),
      ),
      resources: near(
        [...v.resources.values()].filter((r) => !r.depleted),
        (r, d) => ({ id: r.id, resourceId: r.resourceId, skill: r.skill, distance: d, x: r.x, z: r.z }),
      ),
      groundItems: near(v.groundItems.values(), (g, d) => ({
        id: g.id,
        itemId: g.itemId,
        name: nameOf(data, g.itemId),
        quantity: g.quantity,
        distance: d,
        x: g.x,
        z: g.z,
      })),
      stations: near(p.stations.values(), (st, d) => ({
        id: st.id,
        type: st.type,
        name: st.name,
        distance: d,
        x: st.x,
        z: st.z,
        ...(st.runeType ? { runeType: st.runeType } : {}),
      })),
    },
    dialogue: v.dialogue,
    store: v.store,
    tanner: p.tanner,
    bank: self.bank,
    trade: p.trade,
    duel: p.duel ? { kind: p.duel.type, ...p.duel.data } : null,
    goal: goalView(p.mind.goal),
    quests: self.quests.filter((q) => q.status !== "completed" && q.status !== "not_started"),
  };
}
