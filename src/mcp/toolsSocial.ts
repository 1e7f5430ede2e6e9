import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { goalFrom } from "../agents/brain.js";
import { questPointsOf } from "../game/quests.js";
import { availableGoals, goalView, type GoalOption } from "../agents/goals.js";
import { GoalBody } from "../http/api/agents.js";
import { ClientMessages, PRODUCTION_KINDS, SERVER_MESSAGE_TYPES, TradeMessages, TRADE_CANCEL_REASONS } from "../protocol/index.js";
import { DEFAULT_MAX_TICKS, MAX_TICKS, perform, type Watch } from "./act.js";
import { toolResult, ToolError } from "./results.js";
import type { McpSession } from "./session.js";
import { maxTicks, tool } from "./toolKit.js";

/** The longest note, and how many a session may post a minute. */
export const NOTE_MAX_CHARS = 280;
export const NOTES_PER_MINUTE = 30;

/** Goal types a count applies to (as the agents' REST routes). */
const COUNTED: ReadonlySet<string> = new Set([...PRODUCTION_KINDS, "buy"]);

/** The goal of `set_goal`: one of `availableGoals` by id, or by type and target (the agents' REST body, as one object). */
const GoalArgs = z
  .object({
    goalId: z.string().min(1).max(128).optional(),
    type: GoalBody.options[1].shape.type.optional(),
    target: z.string().min(1).max(128).nullish(),
    count: z.number().int().min(1).max(10_000).optional(),
  })
  .strict();

/** Trades (both screens), chat, the quest journal, goals for the built-in runtime, and waiting. */
export function registerSocialTools(server: McpServer, s: McpSession) {
  const p = s.player;
  /** When this session's notes of the last minute were posted. */
  const noted: number[] = [];

  tool(
    server,
    s,
    "trade",
    "Trade with a player within 2 tiles. op request (playerId: answers with the other side's answer), respond (accept true/false to a request), offer / remove (slot, quantity: offer screen), accept (the screen shown: answers once both accepted and the next screen, or the completed trade, came), decline (cancel). tradeId: the trade open (default).",
    z
      .object({
        op: z.enum(["request", "respond", "offer", "remove", "accept", "decline"]),
        playerId: TradeMessages.tradeRequest.shape.targetPlayerId.optional(),
        tradeId: TradeMessages.tradeAccept.shape.tradeId.optional(),
        accept: z.boolean().optional(),
        slot: ClientMessages["bank:deposit"].shape.slot.optional(),
        quantity: ClientMessages["bank:deposit"].shape.quantity.optional(),
        maxTicks,
      })
      .strict(),
    async (m, extra) => {
      const tradeId = m.tradeId ?? p.trade?.tradeId;
      const need = <T>(v: T | undefined, what: string): T => {
        if (v === undefined) throw new ToolError("INVALID_PAYLOAD", `trade: ${what}: required for ${m.op}`);
        return v;
      };
      const ends = (h: { type: string; data: any }) => (h.type === "tradeCompleted" || h.type === "tradeCancelled") && h.data.tradeId === tradeId;
      const report: Watch["report"] = (pl) => ({ trade: pl.trade });
      const ticks = m.maxTicks ?? DEFAULT_MAX_TICKS;
      switch (m.op) {
        case "request": {
          const target = need(m.playerId, "playerId");
          let asked: string | undefined;
          return perform(
            s,
            extra,
            { type: "tradeRequest", data: { targetPlayerId: target } },
            {
              maxTicks: ticks,
              until: (h) => {
                if (h.type === "tradeRequestSent") asked = h.data.tradeId;
                else if ((h.type === "tradeStarted" || h.type === "tradeCancelled") && h.data.tradeId === asked) return "done";
                return undefined;
              },
              report: (pl, heard) => ({ answer: answerOf(heard, asked), trade: pl.trade }),
            },
          );
        }
        case "respond":
          return perform(
            s,
            extra,
            { type: "tradeRequestRespond", data: { tradeId: need(tradeId, "tradeId"), accept: need(m.accept, "accept") } },
            {
              maxTicks: 2,
              until: (h) => ((h.type === "tradeStarted" || h.type === "tradeCancelled") && h.data.tradeId === tradeId ? "done" : undefined),
              report,
            },
          );
        case "offer":
        case "remove":
          return perform(
            s,
            extra,
            {
              type: m.op === "offer" ? "tradeAddItem" : "tradeRemoveItem",
              data: {
                tradeId: need(tradeId, "tradeId"),
                inventorySlot: need(m.slot, "slot"),
                ...(m.quantity !== undefined || m.op === "offer" ? { quantity: m.quantity ?? 1 } : {}),
              },
            },
            { maxTicks: 2, until: (h) => (h.type === "tradeUpdated" || ends(h) ? "done" : undefined), report },
          );
        case "accept": {
          const screen = p.trade?.screen;
          return perform(
            s,
            extra,
            { type: "tradeAccept", data: { tradeId: need(tradeId, "tradeId") } },
            {
              maxTicks: ticks,
              progress: (_pl, t) => ({ progress: t, message: "waiting for the other side to accept" }),
              until: (h) => {
                if (ends(h)) return "done";
                // The next screen: both accepted the offer.
                if (screen === "offer" && h.type === "tradeConfirmScreen") return "done";
                return undefined;
              },
              report: (pl, heard) => ({
                trade: pl.trade,
                completed: heard.find((h) => h.type === "tradeCompleted")?.data ?? null,
                cancelled: heard.find((h) => h.type === "tradeCancelled")?.data ?? null,
              }),
            },
          );
        }
        case "decline": {
          const id = need(tradeId, "tradeId");
          const order =
            p.trade?.tradeId === id && p.trade.screen === "incoming"
              ? { type: "tradeRequestRespond" as const, data: { tradeId: id, accept: false } }
              : { type: "tradeCancel" as const, data: { tradeId: id } };
          return perform(s, extra, order, { maxTicks: 2, until: (h) => (ends(h) ? "done" : undefined), report });
        }
      }
    },
  );

  tool(
    server,
    s,
    "chat",
    'Say something: channel local (players within 15 tiles, the default), world (everyone in the world) or private (to: a player\'s name, in any world). Text starting with "/" is a command.',
    ClientMessages["player:chat"],
    async (m, extra) =>
      perform(
        s,
        extra,
        { type: "player:chat", data: m },
        {
          maxTicks: 2,
          settled: () => true,
          until: (h, pl) => ((h.type === "chat:message" && h.data.fromId === pl.sight.self?.id) || h.type === "notice" ? "done" : undefined),
        },
      ),
  );

  tool(
    server,
    s,
    "note",
    `Post a short note of your plan or reasoning for the people watching this agent (its activity: the web client's watch panel, GET /api/agents/:agentId/activity); changes nothing in the world, and nobody in the world sees it. At most ${NOTE_MAX_CHARS} characters, ${NOTES_PER_MINUTE} notes a minute.`,
    z.object({ text: z.string().trim().min(1).max(NOTE_MAX_CHARS) }).strict(),
    async (m) => {
      s.check();
      const now = Date.now();
      while (noted.length && now - noted[0] >= 60_000) noted.shift();
      if (noted.length >= NOTES_PER_MINUTE) throw new ToolError("RATE_LIMITED", `note: at most ${NOTES_PER_MINUTE} notes a minute`);
      noted.push(now);
      s.ctx.activity.record(s.characterId, "note", m.text);
      return toolResult({ noted: m.text });
    },
  );

  tool(
    server,
    s,
    "quest_journal",
    "The quest journal: every quest of the world, its status and the stage in force (what to do next, and its target: the npc, kind or item id to act on, which interact takes), and the quest points.",
    z.object({}).strict(),
    async () => {
      s.check();
      const started = new Map((p.sight.self?.quests ?? []).map((q) => [q.questId, q]));
      const quests = [...s.ctx.gameData.quests.values()].map((q) => {
        const j = started.get(q.id);
        return {
          questId: q.id,
          name: q.name,
          description: q.description ?? null,
          startNpc: q.startNpc ?? null,
          status: j?.status ?? "not_started",
          stage: j?.stage ?? 0,
          stageDescription: j ? j.stageDescription : (q.stages[0]?.description ?? null),
          count: j?.count ?? 0,
          needed: j?.needed ?? 0,
          // Where the stage in force is done (the npc to talk to, the kind to kill, the item to gather or make): interact takes its id.
          target: j ? j.target : q.startNpc ? { type: "talk", id: q.startNpc } : null,
          requirements: q.requirements ?? null,
        };
      });
      const journal = new Map(
        (p.sight.self?.quests ?? []).map((q) => [q.questId, { questId: q.questId, stage: q.stage, count: q.count, completions: q.completions }]),
      );
      return toolResult({ questPoints: questPointsOf(s.ctx.gameData.quests, journal), quests });
    },
  );

  tool(
    server,
    s,
    "set_goal",
    "Hand a goal to the built-in agent runtime, which then plays this character toward it tick by tick (gathering, production with a count, combat, bank, pickup, buy, sell, a quest) until it is reached or given up, or until another action tool is called. goalId: one of agent_status's availableGoals, or type and target. Answers with the goal.",
    GoalArgs,
    async (m) => {
      s.check();
      if ((m.goalId === undefined) === (m.type === undefined)) throw new ToolError("INVALID_PAYLOAD", "set_goal: give goalId, or type (and target), not both");
      const options = availableGoals(p.sight, s.knowledge);
      const chosen: GoalOption | undefined =
        m.goalId !== undefined ? options.find((o) => o.id === m.goalId) : options.find((o) => o.type === m.type && (m.target == null || o.target === m.target));
      if (!chosen) throw new ToolError("UNKNOWN_GOAL", "set_goal: not one of agent_status's availableGoals");
      if (!chosen.available) throw new ToolError("GOAL_UNAVAILABLE", `set_goal: ${chosen.reason ?? "not available now"}`);
      if (m.count !== undefined && !COUNTED.has(chosen.type)) throw new ToolError("INVALID_PAYLOAD", "set_goal: count: only for production and buy goals");
      p.mind.goal = goalFrom(chosen, p.sight, "owner", m.count);
      return toolResult({ goal: goalView(p.mind.goal) });
    },
  );

  tool(
    server,
    s,
    "agent_status",
    "The goal the built-in runtime plays for this character (with its progress), and every goal it could take now (availableGoals, each available or with the reason it is not).",
    z.object({}).strict(),
    async () => {
      s.check();
      return toolResult({ goal: goalView(p.mind.goal), availableGoals: availableGoals(p.sight, s.knowledge) });
    },
  );

  tool(
    server,
    s,
    "wait",
    `Let game ticks pass: for \`ticks\` ticks, or until an event of one of the kinds in \`for\` comes (a server message type such as tradeIncoming, chat:message, npc:killed, or "goal" for the goal set with set_goal to end), at most maxTicks (default ${DEFAULT_MAX_TICKS}, at most ${MAX_TICKS}). Answers with the events that came.`,
    z
      .object({
        ticks: z.number().int().min(1).max(MAX_TICKS).optional(),
        for: z
          .array(z.enum([...SERVER_MESSAGE_TYPES, "goal"]))
          .min(1)
          .max(16)
          .optional(),
        maxTicks,
      })
      .strict(),
    async (m, extra) => {
      const kinds = new Set<string>(m.for ?? []);
      const waitsForGoal = kinds.has("goal");
      const limit = m.for ? (m.maxTicks ?? m.ticks ?? DEFAULT_MAX_TICKS) : (m.ticks ?? m.maxTicks ?? 1);
      return perform(s, extra, null, {
        maxTicks: limit,
        until: (h) => (kinds.has(h.type) ? "done" : undefined),
        settled: waitsForGoal ? (pl) => pl.mind.goal === null : undefined,
        progress: (_pl, t) => ({ progress: t, total: limit, message: `${t} of ${limit} ticks` }),
        report: (pl) => (m.for ? { goal: goalView(pl.mind.goal) } : { done: true }),
      });
    },
  );
}

/** What the other side answered a trade request: accepted, or the cancel's reason; null while unanswered. */
function answerOf(heard: Array<{ type: string; data: any }>, tradeId: string | undefined): string | null {
  const h = heard.find((x) => (x.type === "tradeStarted" || x.type === "tradeCancelled") && x.data.tradeId === tradeId);
  if (!h) return null;
  if (h.type === "tradeStarted") return "accepted";
  return (TRADE_CANCEL_REASONS as readonly string[]).includes(h.data.reason) ? h.data.reason : "cancelled";
}
