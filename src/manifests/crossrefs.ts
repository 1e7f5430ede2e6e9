/**
 * Cross-reference checks between manifests. A record that names something undefined (an unknown
 * item, npc, store, gathering id or vegetation asset) is skipped with a warning naming the file and
 * the record; loading carries on. Checks run in dependency order, so a record skipped early (say, a
 * rock whose ore is not an item) also breaks what refers to it later (that rock's placements).
 *
 * In a lenient load (validate=false) references are still resolved where possible but nothing is
 * skipped and nothing is reported.
 */
import type { LoadContext } from "./context.js";
import type { GameData, GatheringResource, ItemDef, Position, ToolDef } from "./gameData.js";
import { findGatheringResource } from "./gameData.js";
import { DIALOGUE_EFFECTS, effectsOf, parseEffect } from "./dialogue.js";
import { placementNpc } from "./npcs.js";
import { GATHERING_SKILLS } from "../protocol/vocabulary.js";

export interface CrossRefOptions {
  /** vegetation.json was present: biome vegetation assets are checked against it. */
  vegetationPresent: boolean;
  /** stations.json was present: station placements are checked against its types. */
  stationsPresent: boolean;
}

type Draft = Omit<GameData, "warnings" | "files" | "spawn" | "version">;

function at(p: Position): string {
  return `(${p.x}, ${p.y}, ${p.z})`;
}

/** Returns true when the record must be dropped (strict load), after reporting it. */
function broken(ctx: LoadContext, file: string, message: string): boolean {
  if (!ctx.validate) return false;
  ctx.warn(file, message);
  return true;
}

function isTool(item: ItemDef, tools: Map<string, ToolDef>): boolean {
  return item.type === "tool" || item.toolSkill !== undefined || tools.has(item.id);
}

/**
 * Item ids satisfying a gathering resource's `toolRequired`: the named item and every tool of the
 * same family in other tiers ("bronze_hatchet" -> every *_hatchet), or, for a category name such as
 * "pickaxe", every tool whose id ends in "_pickaxe".
 */
export function resolveToolItems(name: string, items: Map<string, ItemDef>, tools: Map<string, ToolDef>): string[] {
  const ids: string[] = [];
  let family: string | undefined = name;
  const exact = items.get(name);
  if (exact) {
    ids.push(exact.id);
    const tier = exact.tier ?? tools.get(exact.id)?.tier;
    family = tier && name.startsWith(`${tier}_`) ? name.slice(tier.length + 1) : undefined;
  }
  if (family) {
    for (const item of items.values()) {
      if (item.id !== name && item.id.endsWith(`_${family}`) && isTool(item, tools)) ids.push(item.id);
    }
  }
  return ids;
}

function checkTools(ctx: LoadContext, d: Draft): void {
  for (const [id, tool] of d.tools) {
    if (!d.items.has(tool.itemId) && broken(ctx, "tools.json", `tool ${id}: unknown item ${tool.itemId}; skipped`)) {
      d.tools.delete(id);
    }
  }
}

function checkNpcDrops(ctx: LoadContext, d: Draft): void {
  for (const npc of d.npcs.values()) {
    npc.drops = npc.drops.filter((drop) => d.items.has(drop.itemId) || !broken(ctx, npc.source, `npc ${npc.id} drop ${drop.itemId}: unknown item; skipped`));
  }
}

function checkGathering(ctx: LoadContext, d: Draft): void {
  for (const skill of GATHERING_SKILLS) {
    for (const [id, res] of d.gathering[skill]) {
      if (!gatheringOk(ctx, d, res)) d.gathering[skill].delete(id);
    }
  }
}

function gatheringOk(ctx: LoadContext, d: Draft, res: GatheringResource): boolean {
  const file = res.source;
  for (const y of res.yields) {
    if (!d.items.has(y.itemId) && broken(ctx, file, `resource ${res.id} yield ${y.itemId}: unknown item; resource skipped`)) {
      return false;
    }
  }
  if (res.toolRequired) {
    res.toolItemIds = resolveToolItems(res.toolRequired, d.items, d.tools);
    if (res.toolItemIds.length === 0 && broken(ctx, file, `resource ${res.id}: no item is a ${res.toolRequired} (toolRequired); skipped`)) {
      return false;
    }
  }
  if (res.secondaryRequired && !d.items.has(res.secondaryRequired)) {
    if (broken(ctx, file, `resource ${res.id}: unknown item ${res.secondaryRequired} (secondaryRequired); skipped`)) return false;
  }
  return true;
}

function checkStores(ctx: LoadContext, d: Draft): void {
  for (const store of d.stores.values()) {
    store.items = store.items.filter((e) => d.items.has(e.itemId) || !broken(ctx, "stores.json", `store ${store.id} item ${e.itemId}: unknown item; skipped`));
  }
}

function checkRecipes(ctx: LoadContext, d: Draft): void {
  for (const [kind, list] of Object.entries(d.recipes)) {
    const file = `recipes/${kind}.json`;
    d.recipes[kind] = list.filter((r) => {
      const unknown = r.itemRefs.filter((ref) => !d.items.has(ref));
      return unknown.length === 0 || !broken(ctx, file, `recipe ${r.id}: unknown item ${unknown.join(", ")}; skipped`);
    });
  }
}

/**
 * Where production recipes are made: a station type stations.json does not define skips the recipe;
 * one the world places nowhere (or, for runecrafting, no altar of the recipe's rune, or for
 * tanning no tanner) is reported, since nobody can make it there.
 */
function checkRecipeStations(ctx: LoadContext, d: Draft, opts: CrossRefOptions): void {
  if (!ctx.validate) return;
  const placed = [...d.worldAreas.values()].flatMap((a) => a.stations);
  const tanners = [...d.npcs.values()].filter((n) => n.dialogue && effectsOf(n.dialogue).some((e) => e.effect === "openTanner"));
  const placedNpcs = new Set([...d.worldAreas.values()].flatMap((a) => a.npcs.map((n) => n.npcId)));
  for (const [kind, list] of Object.entries(d.recipes)) {
    const file = `recipes/${kind}.json`;
    d.recipes[kind] = list.filter((r) => {
      if (!r.station) return true;
      if (r.station === "tanner") {
        if (!tanners.some((t) => placedNpcs.has(t.id)))
          ctx.warn(file, `recipe ${r.id}: no tanner (an npc offering openTanner) is placed in the world; it cannot be made`);
        return true;
      }
      if (opts.stationsPresent && !d.stations.has(r.station)) return !broken(ctx, file, `recipe ${r.id}: unknown station ${r.station}; skipped`);
      const here = placed.filter((s) => s.type === r.station && (!r.runeType || s.runeType === r.runeType));
      if (here.length === 0) {
        const what = r.runeType ? `${r.station} of rune type ${r.runeType}` : r.station;
        ctx.warn(file, `recipe ${r.id}: no ${what} is placed in the world; it cannot be made`);
      }
      return true;
    });
  }
}

function checkBiomes(ctx: LoadContext, d: Draft, opts: CrossRefOptions): void {
  const file = "biomes.json";
  for (const biome of d.biomes.values()) {
    biome.mobs = biome.mobs.filter((m) => d.npcs.has(m) || !broken(ctx, file, `biome ${biome.id} mob ${m}: unknown npc; skipped`));
    if (!opts.vegetationPresent) continue;
    for (const layer of biome.vegetation) {
      layer.assets = layer.assets.filter(
        (a) =>
          d.vegetation.has(a) || !broken(ctx, file, `biome ${biome.id} vegetation layer ${layer.category} asset ${a}: not defined in vegetation.json; skipped`),
      );
    }
  }
}

/** The older format names a placement by the item it yields ("logs"); find the resource that yields it. */
function resourceYielding(d: Draft, itemId: string, skill: GatheringResource["skill"]): GatheringResource | undefined {
  for (const res of d.gathering[skill].values()) if (res.yields.some((y) => y.itemId === itemId)) return res;
  return undefined;
}

function checkWorldAreas(ctx: LoadContext, d: Draft, opts: CrossRefOptions): void {
  const file = "world-areas.json";
  const fishingIds = d.gathering.fishing;
  for (const area of d.worldAreas.values()) {
    const where = `area ${area.group}.${area.id}`;
    area.npcs = area.npcs.filter((p) => {
      if (!d.npcs.has(p.npcId) && p.named) d.npcs.set(p.npcId, placementNpc({ ...p, named: p.named }, file));
      if (!d.npcs.has(p.npcId)) return !broken(ctx, file, `${where} npc ${p.npcId}: not defined in npcs.json; skipped`);
      if (p.storeId && !d.stores.has(p.storeId)) {
        return !broken(ctx, file, `${where} npc ${p.npcId}: unknown store ${p.storeId}; skipped`);
      }
      return true;
    });
    area.resources = area.resources.filter((p) => {
      const res = findGatheringResource(d, p.resourceId) ?? resourceYielding(d, p.resourceId, p.skill);
      if (res) {
        p.resourceId = res.id;
        p.skill = res.skill;
        return true;
      }
      return !broken(ctx, file, `${where} resource ${p.resourceId} at ${at(p.position)}: unknown gathering id; skipped`);
    });
    area.mobSpawns = area.mobSpawns.filter(
      (s) => d.npcs.has(s.mobId) || !broken(ctx, file, `${where} mob spawn ${s.mobId} at ${at(s.position)}: unknown npc; skipped`),
    );
    if (opts.stationsPresent) {
      area.stations = area.stations.filter(
        (s) => d.stations.has(s.type) || !broken(ctx, file, `${where} station ${s.id}: unknown station type ${s.type}; skipped`),
      );
    }
    if (area.fishing) {
      area.fishing.spotTypes = area.fishing.spotTypes.filter(
        (t) => fishingIds.has(t) || !broken(ctx, file, `${where} fishing spot type ${t}: unknown fishing spot; skipped`),
      );
    }
  }
}

function checkQuests(ctx: LoadContext, d: Draft): void {
  const file = "quests.json";
  for (const [id, quest] of d.quests) {
    if (quest.startNpc && !d.npcs.has(quest.startNpc) && broken(ctx, file, `quest ${id}: unknown start npc ${quest.startNpc}; skipped`)) {
      d.quests.delete(id);
      continue;
    }
    quest.startItems = quest.startItems.filter((e) => d.items.has(e.itemId) || !broken(ctx, file, `quest ${id} start item ${e.itemId}: unknown item; skipped`));
    quest.rewardItems = quest.rewardItems.filter(
      (e) => d.items.has(e.itemId) || !broken(ctx, file, `quest ${id} reward item ${e.itemId}: unknown item; skipped`),
    );
    for (const stage of quest.stages) {
      stage.handOver = (stage.handOver ?? []).filter(
        (e) => d.items.has(e.itemId) || !broken(ctx, file, `quest ${id} stage ${stage.id} hand-over item ${e.itemId}: unknown item; skipped`),
      );
    }
  }
}

/** Dialogue effects: one the server does not play, or a quest effect naming no quest, is reported (and ignored in play). */
function checkDialogueEffects(ctx: LoadContext, d: Draft): void {
  if (!ctx.validate) return;
  for (const npc of d.npcs.values()) {
    if (!npc.dialogue) continue;
    for (const { nodeId, effect } of effectsOf(npc.dialogue)) {
      const { verb, arg } = parseEffect(effect);
      const where = `npc ${npc.id} dialogue node ${nodeId}`;
      if (!(DIALOGUE_EFFECTS as readonly string[]).includes(verb)) ctx.warn(npc.source, `${where}: effect ${effect} is not played by this server; ignored`);
      else if ((verb === "startQuest" || verb === "completeQuest") && !d.quests.has(arg ?? ""))
        ctx.warn(npc.source, `${where}: effect ${effect} names an unknown quest; refused in play`);
    }
  }
}

/**
 * Spells whose runes, and arrows that, are not items are skipped; an npc casting an unknown spell
 * fights in melee. (A prayer's conflicts may name prayers beyond the set.)
 */
function checkCombat(ctx: LoadContext, d: Draft): void {
  for (const [id, spell] of d.spells) {
    const unknown = spell.runes.map((r) => r.runeId).filter((r) => !d.items.has(r));
    if (unknown.length && broken(ctx, "combat-spells.json", `spell ${id}: unknown rune ${unknown.join(", ")}; skipped`)) d.spells.delete(id);
  }
  for (const id of [...d.ammunition.keys()]) {
    if (!d.items.has(id) && broken(ctx, "ammunition.json", `arrow ${id}: not an item; skipped`)) d.ammunition.delete(id);
  }
  for (const npc of d.npcs.values()) {
    const c = npc.combat;
    if (
      c.attackType === "magic" &&
      !d.spells.has(c.spellId ?? "") &&
      broken(ctx, npc.source, `npc ${npc.id}: casts unknown spell ${c.spellId ?? "(none)"}; it fights in melee`)
    ) {
      npc.combat = { ...c, attackType: "melee" };
    }
  }
}

function checkKitAndTemplates(ctx: LoadContext, d: Draft): void {
  d.starterKit = d.starterKit.filter((e) => d.items.has(e.itemId) || !broken(ctx, "starter-kit.json", `entry ${e.itemId}: unknown item; skipped`));
  for (const t of d.templates.values()) {
    t.items = t.items.filter(
      (e) => d.items.has(e.itemId) || !broken(ctx, "character-templates.json", `template ${t.id} item ${e.itemId}: unknown item; skipped`),
    );
  }
}

/** Run every check, in dependency order, editing the draft in place. */
export function checkCrossReferences(ctx: LoadContext, d: Draft, opts: CrossRefOptions): void {
  checkTools(ctx, d);
  checkNpcDrops(ctx, d);
  checkGathering(ctx, d);
  checkStores(ctx, d);
  checkRecipes(ctx, d);
  checkBiomes(ctx, d, opts);
  checkWorldAreas(ctx, d, opts);
  checkQuests(ctx, d);
  checkDialogueEffects(ctx, d);
  checkRecipeStations(ctx, d, opts);
  checkCombat(ctx, d);
  checkKitAndTemplates(ctx, d);
}
