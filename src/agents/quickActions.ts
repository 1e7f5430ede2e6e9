import { availableGoals, hasBankable, type GoalOption } from "./goals.js";
import type { WorldKnowledge } from "../game/world/knowledge.js";
import { nearest, type AgentView } from "./view.js";
import { chebyshev } from "../game/movement.js";
import type { ProductionKind } from "../protocol/index.js";
import { productionWordsList } from "./productionWords.js";

/** The quick commands of production: kind, command, label. */
const PRODUCTION_ACTIONS: Array<[ProductionKind, string, string]> = productionWordsList().map(([kind, w]) => [kind, w.command, w.label]);

/**
 * The quick commands an owner can give (each with whether the agent can do it now, and why not),
 * the places near it with their distances, and what it carries.
 */
export function quickActions(view: AgentView, k: WorldKnowledge) {
  const self = view.self;
  const goals = availableGoals(view, k);
  const any = (type: string) => goals.filter((g) => g.type === type);
  const first = (type: string) => any(type).find((g) => g.available) ?? any(type)[0];
  const state = (type: string, none: string) => {
    const g = first(type);
    return g ? { available: g.available, ...(g.available ? {} : { reason: g.reason }) } : { available: false, reason: none };
  };
  const offer = (id: string, g: GoalOption | undefined, command: (g: GoalOption) => string, label: string, none: string) =>
    g
      ? {
          id,
          command: command(g),
          label: g.type === "sell" ? label : g.name,
          available: g.available,
          ...(g.available ? {} : { reason: g.reason }),
        }
      : { id, command: id, label, available: false, reason: none };
  const seenItems = [...view.groundItems.values()].filter((g) => self && chebyshev(self.tile, g) <= 16);
  const actions = [
    { id: "woodcutting", command: "chop trees", label: "Chop trees", ...state("woodcutting", "No trees known nearby") },
    { id: "mining", command: "mine", label: "Mine", ...state("mining", "No rocks known nearby") },
    { id: "fishing", command: "fish", label: "Fish", ...state("fishing", "No fishing spots known nearby") },
    // Making: the best it can of each kind (the reason of the first recipe when it can make none).
    ...PRODUCTION_ACTIONS.map(([kind, command, label]) => {
      const g = goals.find((o) => o.type === kind && o.target === null);
      return { id: kind, command, label, available: g?.available ?? false, ...(g?.available ? {} : { reason: g?.reason ?? "Nothing to make" }) };
    }),
    {
      id: "combat",
      command: `attack ${first("combat")?.target?.replace(/_/g, " ") ?? "goblin"}`,
      label: "Fight",
      ...state("combat", "Nothing to fight nearby"),
    },
    {
      id: "pickup",
      command: "pick up",
      label: "Pick up items",
      available: seenItems.length > 0,
      ...(seenItems.length ? {} : { reason: "Nothing on the ground nearby" }),
    },
    {
      id: "bank",
      command: "go to bank",
      label: "Bank",
      available: self ? hasBankable(k, self) : false,
      ...(self && hasBankable(k, self) ? {} : { reason: "Nothing to bank" }),
    },
    // Buying: the first tool it can afford (else the first it lacks); selling; the first quest it can do (else the first).
    offer("buy", first("buy"), (g) => `buy ${g.target?.replace(/_/g, " ")}`, "Buy a tool", "The stores sell no tool I lack"),
    offer("sell", first("sell"), () => "sell", "Sell what I gathered", "Nothing to sell"),
    offer("quest", first("quest"), (g) => `do quest ${g.target?.replace(/_/g, " ")}`, "Do a quest", "There are no quests here"),
    { id: "stop", command: "stop", label: "Stop", available: true },
    { id: "idle", command: "idle", label: "Idle", available: true },
  ];
  const here = self?.tile ?? { x: 0, z: 0 };
  const places = [
    ...k.areas.map((a) => ({ id: a.id, name: a.name, type: "area", distance: chebyshev(here, a.centre) })),
    ...(nearest(here, k.banks) ? [{ id: "bank", name: "Bank", type: "bank", distance: chebyshev(here, nearest(here, k.banks)!) }] : []),
    ...[...k.resourceSpots].map(([id, s]) => ({
      id,
      name: k.data.gathering[s.skill as "woodcutting"]?.get(id)?.name ?? id,
      type: s.skill,
      distance: chebyshev(here, nearest(here, s.tiles)!),
    })),
  ].sort((a, b) => a.distance - b.distance);
  const counts = new Map<string, number>();
  for (const s of self?.inventory ?? []) counts.set(s.itemId, (counts.get(s.itemId) ?? 0) + s.quantity);
  return {
    actions,
    nearbyLocations: places.slice(0, 12),
    inventory: {
      usedSlots: self?.inventory.length ?? 0,
      freeSlots: view.freeSlots(),
      items: [...counts].map(([itemId, quantity]) => ({ itemId, name: k.data.items.get(itemId)?.name ?? itemId, quantity })),
    },
  };
}
