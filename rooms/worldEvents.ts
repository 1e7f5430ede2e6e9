import { AOI_RADIUS } from "../src/game/spatialGrid.js";
import type { WorldEvent } from "../src/game/world/events.js";
import type { World } from "../src/game/world/World.js";
import { questOf, stageDescription } from "../src/game/world/questing.js";
import { shelvesView, storeView } from "../src/game/world/stores.js";
import { bankView } from "../src/game/world/players.js";
import { nodeView } from "../src/game/dialogue.js";
import type { QuestEvent } from "../src/game/quests.js";
import type { ServerMessage, ServerMessageType } from "../src/protocol/index.js";
import type { Logger } from "pino";

/** What turning the world's events into messages needs from its room. */
export interface EventContext {
  world: World;
  /** Send a message to a player in the world (nothing when they are not online). */
  toPlayer<K extends ServerMessageType>(playerId: string, type: K, payload: ServerMessage<K>): void;
  /** A player died: its trade ends, and the death lock and the emptied pack are written now. */
  playerDied(playerId: string): void;
  /** A death pile ran out: its lock is closed in the database. */
  deathExpired(deathId: string): void;
  /** A dialogue effect the server does not play: reported once per name. */
  unknownEffect(npcId: string, effect: string): void;
  /** Content a feature could not use (WorldEvent contentWarning): logged. */
  contentWarning(message: string): void;
}

/** An EventContext's unknownEffect: each dialogue effect the server does not play, logged once. */
export function reportOnce(logger: Logger): EventContext["unknownEffect"] {
  const seen = new Set<string>();
  return (npcId, effect) => {
    if (seen.has(effect)) return;
    seen.add(effect);
    logger.warn({ npcId, effect }, "dialogue effect not played by this server; ignored");
  };
}

/** A tile as the messages' position. */
function position(at: { x: number; z: number }) {
  return { x: at.x, y: 0, z: at.z };
}

/** The world event of one kind. */
type EventOf<K extends WorldEvent["kind"]> = Extract<WorldEvent, { kind: K }>;
/** The quest event of one kind. */
type QuestEventOf<K extends QuestEvent["kind"]> = Extract<QuestEvent, { kind: K }>;

/**
 * What each kind of world event tells the players: a registry with one entry per kind (a mapped
 * type over WorldEvent's kinds), so a kind added without its message does not compile.
 */
const TELLERS: { [K in WorldEvent["kind"]]: (ctx: EventContext, e: EventOf<K>) => void } = {
  xp: (ctx, e) => ctx.toPlayer(e.playerId, "skill:xp", { skill: e.skill, xp: e.xp, level: e.level, gained: e.gained }),
  levelUp: (ctx, e) => ctx.toPlayer(e.playerId, "skill:levelup", { skill: e.skill, level: e.level }),
  hit: (ctx, e) => {
    for (const id of ctx.world.near("player", e.at, AOI_RADIUS)) {
      ctx.toPlayer(id, "combat:hit", {
        attackerId: e.attackerId,
        targetId: e.targetId,
        damage: e.damage,
        targetHealth: e.targetHealth,
        style: e.style,
        ...(e.splash ? { splash: true } : {}),
      });
    }
  },
  notice: (ctx, e) => ctx.toPlayer(e.playerId, "notice", { code: e.code, message: e.message }),
  actionFailed: (ctx, e) => ctx.toPlayer(e.playerId, "error", { code: e.code, message: e.message }),
  npcKilled: (ctx, e) => ctx.toPlayer(e.playerId, "npc:killed", { npcId: e.npcId, position: position(e.at) }),
  death: (ctx, e) => {
    ctx.toPlayer(e.playerId, "player:death", { deathId: e.deathId, position: position(e.at), items: e.items, killedBy: e.killedBy });
    ctx.playerDied(e.playerId);
  },
  deathExpired: (ctx, e) => ctx.deathExpired(e.deathId),
  dialogue: (ctx, e) => ctx.toPlayer(e.playerId, "dialogue:node", nodeView(e.npcId, e.npcName, e.node)),
  dialogueEnd: (ctx, e) => ctx.toPlayer(e.playerId, "dialogue:end", { npcId: e.npcId, reason: e.reason }),
  bankOpened: (ctx, e) => {
    const p = ctx.world.players.get(e.playerId);
    if (p) ctx.toPlayer(e.playerId, "bank:open", { npcId: e.npcId, items: bankView(p) });
  },
  storeOpened: (ctx, e) => {
    const open = ctx.world.players.get(e.playerId)?.store;
    if (open) ctx.toPlayer(e.playerId, "store:open", storeView(ctx.world, open.storeId, open.npcInstanceId));
  },
  storeClosed: (ctx, e) => ctx.toPlayer(e.playerId, "store:close", { storeId: e.storeId, reason: e.reason }),
  storeChanged: (ctx, e) => {
    const shelves = shelvesView(ctx.world, e.storeId, e.itemIds);
    for (const p of ctx.world.players.values()) if (p.store?.storeId === e.storeId) ctx.toPlayer(p.id, "store:update", { storeId: e.storeId, ...shelves });
  },
  quest: (ctx, e) => (QUEST_TELLERS[e.event.kind] as (ctx: EventContext, playerId: string, q: QuestEvent) => void)(ctx, e.playerId, e.event),
  made: (ctx, e) =>
    ctx.toPlayer(e.playerId, "production:made", {
      kind: e.recipeKind,
      recipeId: e.recipeId,
      success: e.success,
      made: e.made,
      remaining: e.remaining === Infinity ? null : e.remaining,
    }),
  tannerOpened: (ctx, e) =>
    ctx.toPlayer(e.playerId, "tanner:open", {
      npcId: e.npcId,
      recipes: (ctx.world.data.recipes.tanning ?? []).map((r) => ({ recipeId: r.id, input: r.inputs[0]!, output: r.outputs[0]!, coins: r.coins ?? 0 })),
    }),
  unknownEffect: (ctx, e) => ctx.unknownEffect(e.npcId, e.effect),
  contentWarning: (ctx, e) => ctx.contentWarning(e.message),
};

/** What each kind of quest event tells its player (one entry per kind, as TELLERS). */
const QUEST_TELLERS: { [K in QuestEvent["kind"]]: (ctx: EventContext, playerId: string, e: QuestEventOf<K>) => void } = {
  started: (ctx, playerId, e) =>
    ctx.toPlayer(playerId, "quest:started", {
      questId: e.questId,
      name: questOf(ctx.world, e.questId).name,
      stage: e.stage,
      stageDescription: stageDescription(ctx.world, e.questId, e.stage),
    }),
  progress: (ctx, playerId, e) => ctx.toPlayer(playerId, "quest:progress", { questId: e.questId, stage: e.stage, count: e.count, needed: e.needed }),
  stage: (ctx, playerId, e) =>
    ctx.toPlayer(playerId, "quest:stage", { questId: e.questId, stage: e.stage, stageDescription: stageDescription(ctx.world, e.questId, e.stage) }),
  completed: (ctx, playerId, e) => {
    const quest = questOf(ctx.world, e.questId);
    ctx.toPlayer(playerId, "quest:completed", {
      questId: e.questId,
      name: quest.name,
      questPoints: e.questPoints,
      rewards: { items: quest.rewardItems.map((i) => ({ itemId: i.itemId, quantity: i.quantity })), xp: { ...quest.rewardXp } },
    });
  },
};

/** The tick's world events as the messages the players are told (docs/PROTOCOL.md §4). */
export function dispatchEvents(ctx: EventContext, events: WorldEvent[]) {
  for (const e of events) (TELLERS[e.kind] as (ctx: EventContext, e: WorldEvent) => void)(ctx, e);
}
