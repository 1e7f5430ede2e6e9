/**
 * The combat manifests: prayers.json (prayers with their level, drain and bonuses),
 * combat-spells.json (spells by spellbook and tier, with their runes) and ammunition.json (arrows
 * with their ranged strength and the bow tier they need). An invalid record is skipped with a
 * warning, like every manifest's.
 */
import { z } from "zod";
import type { LoadContext } from "./context.js";
import { labelOf } from "./context.js";

export interface PrayerDef {
  id: string;
  name: string;
  level: number;
  category?: string;
  drainEffect: number;
  /** e.g. { attackMultiplier: 1.05, defenseMultiplier: 1.05 } */
  bonuses: Record<string, number>;
  conflicts: string[];
}

export interface SpellDef {
  id: string;
  name: string;
  /** The spellbook and tier it came from: "standard", "strike". */
  book: string;
  tier: string;
  level: number;
  baseMaxHit: number;
  baseXp: number;
  element?: string;
  /** Ticks between casts. */
  attackSpeed: number;
  runes: Array<{ runeId: string; quantity: number }>;
}

/** An arrow as ammunition.json describes it. */
export interface AmmoDef {
  id: string;
  rangedStrength: number;
  requiredRangedLevel: number;
  requiredBowTier: number;
}

const id = z.string().min(1).max(200);
const level = z.number().int().min(1).max(99);
const nonNeg = z.number().finite().min(0);

const prayerSchema = z.looseObject({
  id,
  name: z.string().min(1),
  level,
  category: z.string().nullish(),
  drainEffect: nonNeg.max(1000),
  bonuses: z.record(z.string(), z.number().finite()).nullish(),
  conflicts: z.array(id).nullish(),
});

const spellSchema = z.looseObject({
  id,
  name: z.string().min(1),
  level,
  baseMaxHit: nonNeg.max(1000),
  baseXp: nonNeg.max(100_000),
  element: z.string().nullish(),
  attackSpeed: z.number().int().min(1).max(100).nullish(),
  runes: z.array(z.looseObject({ runeId: id, quantity: z.number().int().min(1).max(1000) })).min(1),
});

const arrowSchema = z.looseObject({
  id,
  rangedStrength: nonNeg.max(1000),
  requiredRangedLevel: level.nullish(),
  requiredBowTier: level.nullish(),
});

/** Each valid record of a list, by id (the first of a duplicated id is kept). */
function byId<T extends { id: string }>(
  ctx: LoadContext,
  file: string,
  list: unknown[],
  what: string,
  read: (v: unknown, label: string) => T | undefined,
): Map<string, T> {
  const out = new Map<string, T>();
  list.forEach((value, i) => {
    const label = `${what} ${labelOf(value, i)}`;
    const r = read(value, label);
    if (!r) return;
    if (out.has(r.id)) ctx.warn(file, `${label} is defined twice; duplicate skipped`);
    else out.set(r.id, r);
  });
  return out;
}

export function buildPrayers(ctx: LoadContext, file: string, json: unknown): Map<string, PrayerDef> {
  const top = ctx.topLevel(z.looseObject({ prayers: z.array(z.unknown()) }), json, file, false);
  if (!top) return new Map();
  return byId(ctx, file, top.prayers, "prayer", (v, label) => {
    const r = ctx.record(prayerSchema, v, file, label);
    return (
      r && {
        id: r.id,
        name: r.name,
        level: r.level,
        ...(r.category ? { category: r.category } : {}),
        drainEffect: r.drainEffect,
        bonuses: { ...(r.bonuses ?? {}) },
        conflicts: [...(r.conflicts ?? [])],
      }
    );
  });
}

/** combat-spells.json: { <book>: { <tier>: [spell, ...] } }. */
export function buildSpells(ctx: LoadContext, file: string, json: unknown): Map<string, SpellDef> {
  const top = ctx.topLevel(z.record(z.string(), z.unknown()), json, file, false);
  const out = new Map<string, SpellDef>();
  if (!top) return out;
  for (const [book, tiers] of Object.entries(top)) {
    if (book.startsWith("_") || !tiers || typeof tiers !== "object" || Array.isArray(tiers)) continue;
    for (const [tier, list] of Object.entries(tiers as Record<string, unknown>)) {
      if (!Array.isArray(list)) continue;
      for (const [spellId, spell] of byId(ctx, file, list, `${book} ${tier} spell`, (v, label) => {
        const r = ctx.record(spellSchema, v, file, label);
        return (
          r && {
            id: r.id,
            name: r.name,
            book,
            tier,
            level: r.level,
            baseMaxHit: r.baseMaxHit,
            baseXp: r.baseXp,
            ...(r.element ? { element: r.element } : {}),
            attackSpeed: r.attackSpeed ?? 5,
            runes: r.runes.map((x) => ({ runeId: x.runeId, quantity: x.quantity })),
          }
        );
      })) {
        if (out.has(spellId)) ctx.warn(file, `spell ${spellId} is defined twice; duplicate skipped`);
        else out.set(spellId, spell);
      }
    }
  }
  return out;
}

export function buildAmmunition(ctx: LoadContext, file: string, json: unknown): Map<string, AmmoDef> {
  const top = ctx.topLevel(z.looseObject({ arrows: z.array(z.unknown()) }), json, file, false);
  if (!top) return new Map();
  return byId(ctx, file, top.arrows, "arrow", (v, label) => {
    const r = ctx.record(arrowSchema, v, file, label);
    return r && { id: r.id, rangedStrength: r.rangedStrength, requiredRangedLevel: r.requiredRangedLevel ?? 1, requiredBowTier: r.requiredBowTier ?? 1 };
  });
}
