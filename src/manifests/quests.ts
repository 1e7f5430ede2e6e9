/**
 * quests.json: quests keyed by id, with their requirements, the npc that starts them, what starting
 * gives, the stages in order, and the rewards.
 */
import { z } from "zod";
import type { LoadContext } from "./context.js";
import { itemList, rawOf } from "./context.js";
import type { ItemQuantity, Raw } from "./shapes.js";
import { def, normalizeSkillName } from "./util.js";

/**
 * One stage of a quest. `dialogue`: talk to `npcId`; `kill`: kill `count` of the npc `target`;
 * `gather`: gather `count` of the item `target`; `interact`: make or use `count` of `target` (an
 * item made, or what was lit or cooked). Other types load and are reported as unplayable.
 */
export interface QuestStage {
  id: string;
  type: string;
  description: string;
  npcId?: string;
  target?: string;
  count: number;
  /** A `dialogue` stage's items the player gives its npc: the stage passes only with them in the pack, and takes them (absent: none). */
  handOver?: ItemQuantity[];
}

export interface QuestRequirements {
  quests: string[];
  /** Skill → level. */
  skills: Record<string, number>;
  items: ItemQuantity[];
}

export interface QuestDef {
  id: string;
  name: string;
  description?: string;
  difficulty?: string;
  /** Quest points the quest is worth (the reward's, else the quest's). */
  questPoints: number;
  replayable: boolean;
  requirements: QuestRequirements;
  startNpc?: string;
  stages: QuestStage[];
  /** Items given when the quest starts. */
  startItems: ItemQuantity[];
  /** The start npc's dialogue node shown once the quest is accepted. */
  startDialogue?: string;
  /** Items given as the reward. */
  rewardItems: ItemQuantity[];
  /** Skill → xp given as the reward. */
  rewardXp: Record<string, number>;
  raw: Raw;
}

/** The stage types the server plays. */
export const QUEST_STAGE_TYPES = ["dialogue", "kill", "gather", "interact"] as const;

export const questsFileSchema = z.record(z.string(), z.unknown());

const itemEntries = z.array(z.unknown()).nullish();
const count = z.number().int().min(1).max(1_000_000);

export const questSchema = z.looseObject({
  id: z.string().min(1).max(200).nullish(),
  name: z.string().min(1),
  description: z.string().nullish(),
  difficulty: z.string().nullish(),
  questPoints: z.number().int().min(0).max(1000).nullish(),
  replayable: z.boolean().nullish(),
  requirements: z
    .looseObject({
      quests: z.array(z.string().min(1)).nullish(),
      skills: z.record(z.string(), z.number().int().min(1).max(99)).nullish(),
      items: itemEntries,
    })
    .nullish(),
  startNpc: z.string().nullish(),
  stages: z
    .array(
      z.looseObject({
        id: z.string().min(1).max(200),
        type: z.string().min(1),
        description: z.string().nullish(),
        npcId: z.string().nullish(),
        target: z.string().nullish(),
        count: count.nullish(),
        handOver: itemEntries,
      }),
    )
    .nullish(),
  onStart: z.looseObject({ items: itemEntries, dialogue: z.string().nullish() }).nullish(),
  rewards: z
    .looseObject({
      items: itemEntries,
      questPoints: z.number().int().min(0).max(1000).nullish(),
      xp: z.record(z.string(), z.number().min(0).max(200_000_000)).nullish(),
    })
    .nullish(),
});

const skillMap = (m: Record<string, number> | null | undefined) => Object.fromEntries(Object.entries(m ?? {}).map(([k, v]) => [normalizeSkillName(k), v]));

export function buildQuests(ctx: LoadContext, file: string, json: unknown): Map<string, QuestDef> {
  const quests = new Map<string, QuestDef>();
  const top = ctx.topLevel(questsFileSchema, json, file, false);
  if (!top) return quests;
  for (const [key, value] of Object.entries(top)) {
    const r = ctx.record(questSchema, value, file, `quest ${key}`);
    if (!r) continue;
    const id = r.id ?? key;
    const stages: QuestStage[] = [];
    for (const s of r.stages ?? []) {
      if (!(QUEST_STAGE_TYPES as readonly string[]).includes(s.type))
        ctx.warn(file, `quest ${id} stage ${s.id}: stage type ${s.type} is not played; the quest stops there`);
      const handOver = itemList(ctx, file, s.handOver, `quest ${id} stage ${s.id} hand-over`);
      if (handOver.length && s.type !== "dialogue") ctx.warn(file, `quest ${id} stage ${s.id}: handOver is played on dialogue stages only; ignored`);
      stages.push({
        id: s.id,
        type: s.type,
        description: s.description ?? s.id,
        npcId: def(s.npcId),
        target: def(s.target),
        count: s.count ?? 1,
        handOver: s.type === "dialogue" ? handOver : [],
      });
    }
    quests.set(id, {
      id,
      name: r.name,
      description: def(r.description),
      difficulty: def(r.difficulty),
      questPoints: r.rewards?.questPoints ?? r.questPoints ?? 0,
      replayable: r.replayable ?? false,
      requirements: {
        quests: r.requirements?.quests ?? [],
        skills: skillMap(r.requirements?.skills),
        items: itemList(ctx, file, r.requirements?.items, `quest ${id} requirement`),
      },
      startNpc: def(r.startNpc),
      stages,
      startItems: itemList(ctx, file, r.onStart?.items, `quest ${id} start`),
      startDialogue: def(r.onStart?.dialogue),
      rewardItems: itemList(ctx, file, r.rewards?.items, `quest ${id} reward`),
      rewardXp: skillMap(r.rewards?.xp),
      raw: rawOf(value),
    });
  }
  return quests;
}
