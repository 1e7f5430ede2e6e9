/**
 * Woodcutting, mining and fishing: whether a player may gather from a resource, and what one
 * gathering cycle (every `resource.cycleTicks` ticks) yields.
 *
 * Success per cycle follows RuneScape's catch-rate curve: a chance out of 256 interpolated linearly
 * between `low` at level 1 and `high` at level 99:
 *
 *   chance(L) = ((low * (99 - L) + high * (L - 1)) / 98 + 1) / 256,   L clamped to 1..99,
 *
 * clamped to [0, 1]. The curve is the yield's (catchLow/catchHigh) when it has one, else the
 * resource's `successChance`, else DEFAULT_CATCH_RATE.
 *
 * The world loop consumes the bait (`secondaryRequired`) and adds the yield on a success, grants the
 * yield's xp, and when `depleted` takes the resource away for `respawnTicks`.
 */
import type { GatheringResource, GatheringYield, ItemDef, ToolDef } from "../manifests/gameData.js";
import { INVENTORY_SIZE, type Inventory, type Rng } from "./types.js";

/** The curve used when neither the yield nor the resource gives one (about 25% at 1, 75% at 99). */
export const DEFAULT_CATCH_RATE = { low: 64, high: 192 } as const;

export type GatherRefusal = "LEVEL_TOO_LOW" | "NO_TOOL" | "NO_BAIT" | "INVENTORY_FULL";

export type GatherCheck = { ok: true; toolId: string | null } | { ok: false; code: GatherRefusal; message: string };

export interface GatherOptions {
  /** tools.json entries by item id: their levelRequired and priority rank the tools. */
  tools?: ReadonlyMap<string, Pick<ToolDef, "levelRequired" | "priority">>;
  /** Item ids the player wears (a wielded hatchet or pickaxe counts as carried). */
  equipped?: readonly string[];
}

type ItemInfo = Pick<ItemDef, "stackable"> & Partial<Pick<ItemDef, "requirements" | "name">>;

function has(inventory: Inventory, itemId: string): boolean {
  return inventory.some((s) => s !== null && s.itemId === itemId && s.quantity > 0);
}

/** The yields a player of `level` can get (a yield's own levelRequired, else the resource's). */
export function availableYields(resource: GatheringResource, level: number): GatheringYield[] {
  return resource.yields.filter((y) => level >= (y.levelRequired ?? resource.levelRequired));
}

/** The level a tool needs in the resource's skill: tools.json, else the item's requirements, else 1. */
function toolLevel(resource: GatheringResource, id: string, items: ReadonlyMap<string, ItemInfo>, opts: GatherOptions): number {
  const fromTools = opts.tools?.get(id)?.levelRequired;
  if (fromTools !== undefined) return fromTools;
  const req = items.get(id)?.requirements;
  return req?.skills[resource.skill] ?? req?.level ?? 1;
}

/**
 * The best usable tool the player carries, or why there is none. Best = the highest level
 * requirement; then the lowest tools.json priority (1 is the best tier there); then the later one in
 * `resource.toolItemIds`. Tools whose level the player lacks are not usable.
 */
export function bestTool(
  resource: GatheringResource,
  level: number,
  inventory: Inventory,
  items: ReadonlyMap<string, ItemInfo>,
  opts: GatherOptions = {},
): { toolId: string } | { toolId: null; lackingLevel?: number } {
  let best: { id: string; level: number; priority: number; order: number } | undefined;
  let lackingLevel: number | undefined;
  resource.toolItemIds.forEach((id, order) => {
    if (!has(inventory, id) && !opts.equipped?.includes(id)) return;
    const need = toolLevel(resource, id, items, opts);
    if (need > level) {
      lackingLevel = Math.min(lackingLevel ?? Infinity, need);
      return;
    }
    const priority = opts.tools?.get(id)?.priority ?? 0;
    const better = !best || need > best.level || (need === best.level && (priority < best.priority || (priority === best.priority && order > best.order)));
    if (better) best = { id, level: need, priority, order };
  });
  return best ? { toolId: best.id } : { toolId: null, lackingLevel };
}

/** Whether the inventory can take every yield the player could get here. */
function roomFor(yields: GatheringYield[], inventory: Inventory, items: ReadonlyMap<string, ItemInfo>): boolean {
  const freeSlot = inventory.length < INVENTORY_SIZE || inventory.slice(0, INVENTORY_SIZE).some((s) => s === null);
  if (freeSlot) return true;
  return yields.length > 0 && yields.every((y) => items.get(y.itemId)?.stackable === true && has(inventory, y.itemId));
}

/**
 * May the player gather from `resource` now? Checked in order: level, tool, bait, inventory room.
 * With no tool needed (no toolItemIds and no toolRequired) `toolId` is null.
 */
export function canGather(
  resource: GatheringResource,
  level: number,
  inventory: Inventory,
  items: ReadonlyMap<string, ItemInfo>,
  opts: GatherOptions = {},
): GatherCheck {
  if (level < resource.levelRequired) {
    return {
      ok: false,
      code: "LEVEL_TOO_LOW",
      message: `You need ${resource.skill} level ${resource.levelRequired} to gather from the ${resource.name}.`,
    };
  }
  let toolId: string | null = null;
  if (resource.toolItemIds.length > 0 || resource.toolRequired) {
    const tool = bestTool(resource, level, inventory, items, opts);
    if (tool.toolId === null) {
      const what = resource.toolRequired ?? resource.toolItemIds[0] ?? "tool";
      const message =
        tool.lackingLevel !== undefined
          ? `You need ${resource.skill} level ${tool.lackingLevel} to use your ${what}.`
          : `You need a ${what} to gather from the ${resource.name}.`;
      return { ok: false, code: "NO_TOOL", message };
    }
    toolId = tool.toolId;
  }
  if (resource.secondaryRequired && !has(inventory, resource.secondaryRequired)) {
    const bait = items.get(resource.secondaryRequired)?.name ?? resource.secondaryRequired;
    return { ok: false, code: "NO_BAIT", message: `You need ${bait} to fish here.` };
  }
  if (!roomFor(availableYields(resource, level), inventory, items)) {
    return { ok: false, code: "INVENTORY_FULL", message: "Your inventory is too full to hold any more." };
  }
  return { ok: true, toolId };
}

/** The curve (out of 256) for a yield of a resource. */
export function catchRate(resource: GatheringResource, y?: GatheringYield): { low: number; high: number } {
  if (y?.catchLow !== undefined && y.catchHigh !== undefined) return { low: y.catchLow, high: y.catchHigh };
  return resource.successChance ?? DEFAULT_CATCH_RATE;
}

/** The chance in [0, 1] that one cycle succeeds at `level` (see the formula at the top). */
export function successChance(resource: GatheringResource, y: GatheringYield | undefined, level: number): number {
  const { low, high } = catchRate(resource, y);
  const l = Math.min(99, Math.max(1, level));
  const outOf256 = (low * (99 - l) + high * (l - 1)) / 98 + 1;
  return Math.min(1, Math.max(0, outOf256 / 256));
}

export interface GatherResult {
  success: boolean;
  yield?: GatheringYield;
  depleted: boolean;
}

/** Pick one of the yields by their `chance` weights (equal weights when all are 0). */
function pickYield(rng: Rng, yields: GatheringYield[]): GatheringYield {
  if (yields.length === 1) return yields[0]!;
  const weights = yields.map((y) => Math.max(0, y.chance));
  const total = weights.reduce((a, b) => a + b, 0);
  if (total <= 0) return yields[Math.min(yields.length - 1, Math.floor(rng() * yields.length))]!;
  let r = rng() * total;
  for (let i = 0; i < yields.length; i++) {
    r -= weights[i]!;
    if (r < 0) return yields[i]!;
  }
  return yields[yields.length - 1]!;
}

/**
 * One gathering cycle. The yield is chosen first among those the level allows (by chance weights;
 * no draw when there is only one), then the cycle succeeds with that yield's success chance, then a
 * success depletes the resource with `depleteChance` (no draw when it is 0 or 1: fishing spots
 * never, rocks always). Nothing happens below the resource's level.
 */
export function gatherCycle(rng: Rng, resource: GatheringResource, level: number): GatherResult {
  if (level < resource.levelRequired) return { success: false, depleted: false };
  const yields = availableYields(resource, level);
  if (yields.length === 0) return { success: false, depleted: false };
  const y = pickYield(rng, yields);
  if (rng() >= successChance(resource, y, level)) return { success: false, depleted: false };
  const p = resource.depleteChance;
  const depleted = p >= 1 ? true : p <= 0 ? false : rng() < p;
  return { success: true, yield: y, depleted };
}
