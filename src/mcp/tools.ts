import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { chebyshev } from "../game/movement.js";
import { ClientMessages, EQUIPMENT_SLOTS, GATHERING_SKILLS } from "../protocol/index.js";
import { DEFAULT_MAX_TICKS, MAX_TICKS, perform, type Watch } from "./act.js";
import { observation } from "./observe.js";
import { registerFeatureTools, type FeatureTool } from "./featureTools.js";
import { isNotice, type McpPlayer } from "./player.js";
import { toolResult, ToolError } from "./results.js";
import type { McpSession } from "./session.js";
import { resolveTarget } from "./targets.js";
import { afterTick, maxTicks, tool } from "./toolKit.js";
import { registerSocialTools } from "./toolsSocial.js";

const at = (p: McpPlayer) => p.sight.self?.tile ?? { x: 0, z: 0 };

/**
 * The tools an MCP session plays with. Their input schemas are the protocol's own message schemas
 * (src/protocol/clientMessages.ts), with `maxTicks` where a tool waits for an outcome; each tool
 * sends the room the message a /ws client would, and answers once the server has decided.
 */
export function registerTools(server: McpServer, s: McpSession, featureTools: readonly FeatureTool[]) {
  const p = s.player;
  const data = s.ctx.gameData;

  tool(
    server,
    s,
    "observe",
    "What the player sees now: position, health, prayer, skills, pack, worn items, what is near (ids and distances), what is open (dialogue, store, bank, trade, duel), the goal the runtime plays, and the quests under way (like every answer, it ends with the events since the previous answer and the vitals).",
    z.object({}).strict(),
    async () => {
      s.check();
      return toolResult(observation(p, data));
    },
  );

  tool(
    server,
    s,
    "move_to",
    "Walk (or run) to a tile; answers once there (or stopped, or refused: OUT_OF_BOUNDS, TOO_FAR over 200 tiles, BLOCKED, NO_PATH). Reports progress each tick.",
    ClientMessages["player:move"].extend({ maxTicks }),
    async ({ maxTicks: ticks, ...m }, extra) => {
      const target = { x: Math.round(m.x), z: Math.round(m.z) };
      const from = chebyshev(at(p), target);
      let wasMoving = false;
      return perform(
        s,
        extra,
        { type: "player:move", data: m },
        {
          maxTicks: ticks ?? DEFAULT_MAX_TICKS,
          settled: (pl) => {
            const self = pl.sight.self!;
            wasMoving ||= self.moving;
            return chebyshev(self.tile, target) === 0 || (wasMoving && !self.moving);
          },
          progress: (pl) => ({ progress: from - chebyshev(at(pl), target), total: from, message: `at ${at(pl).x},${at(pl).z}` }),
          report: (pl) => ({ arrived: chebyshev(at(pl), target) === 0, target }),
        },
      );
    },
  );

  tool(
    server,
    s,
    "interact",
    "Act on something near: gather (a resource id), attack (an npc id), talk (an npc id: opens its dialogue), store (an npc id: opens its store), pickup (a ground item id), pray (an altar station id), stop, or style (set the combat style). targetId is an id observe shows, or a kind id (an npc's npcId such as a quest's startNpc, a resourceId, an itemId, a station type) for the nearest of that kind in view, named in the answer's `resolved`. Walks there first. Answers with the outcome: the first item gathered, the kill, the dialogue node, the store, the item picked up; long actions report progress each tick.",
    ClientMessages["player:action"].extend({ maxTicks }),
    async ({ maxTicks: ticks, ...m }, extra) => {
      const target = resolveTarget(p, m.action, m.targetId);
      const order = { ...m, ...(target.from ? { targetId: target.targetId } : {}) };
      const result = await perform(s, extra, { type: "player:action", data: order }, interactWatch(p, m.action, order.targetId, ticks));
      // A kind id stood for the nearest of its kind: the answer names the instance chosen.
      if (target.from && result.structuredContent)
        (result.structuredContent as Record<string, unknown>).resolved = { from: target.from, targetId: target.targetId };
      return result;
    },
  );

  tool(
    server,
    s,
    "dialogue_respond",
    "Answer the dialogue node shown last with one of its responses (its index). Answers with the next node, or the end of the conversation, and what it set off (a quest started, items given).",
    ClientMessages["dialogue:respond"],
    async (m, extra) =>
      perform(
        s,
        extra,
        { type: "dialogue:respond", data: m },
        {
          maxTicks: 2,
          until: (h) => (h.type === "dialogue:node" || h.type === "dialogue:end" ? "done" : undefined),
          stateAfter: true,
          report: (pl) => ({ dialogue: pl.sight.dialogue }),
        },
      ),
  );

  tool(
    server,
    s,
    "close",
    "Close the dialogue or the store that is open.",
    z.object({ what: z.enum(["dialogue", "store"]) }).strict(),
    async ({ what }, extra) =>
      perform(s, extra, what === "dialogue" ? { type: "dialogue:close", data: {} } : { type: "store:close", data: {} }, {
        maxTicks: 2,
        until: (h) => (h.type === "dialogue:end" || h.type === "store:close" ? "done" : undefined),
      }),
  );

  tool(
    server,
    s,
    "store_buy",
    "Buy from the store that is open (open one with interact store). Answers once the purchase is written: what it cost.",
    ClientMessages["store:buy"],
    async (m, extra) => perform(s, extra, { type: "store:buy", data: m }, { maxTicks: 10, until: (h) => (h.type === "store:bought" ? "done" : undefined) }),
  );

  tool(
    server,
    s,
    "store_sell",
    "Sell the item of a pack slot to the store that is open. Answers once the sale is written: the coins it brought. A sale the store would pay nothing for is refused WORTHLESS_SALE (nothing changes) unless forNothing is true.",
    ClientMessages["store:sell"],
    async (m, extra) => perform(s, extra, { type: "store:sell", data: m }, { maxTicks: 10, until: (h) => (h.type === "store:sold" ? "done" : undefined) }),
  );

  tool(
    server,
    s,
    "bank",
    "Within 3 tiles of a bank: deposit a pack slot (slot, quantity, tab? for a new item), withdraw an item (itemId, quantity), move an item to a tab (op tab: itemId, tab 0-9), or take a placeholder away (op release: itemId, or none for all). Answers with the bank after the move (its stacks, with their tab; placeholders are not listed).",
    z
      .object({
        op: z.enum(["deposit", "withdraw", "tab", "release"]),
        slot: ClientMessages["bank:deposit"].shape.slot.optional(),
        itemId: ClientMessages["bank:withdraw"].shape.itemId.optional(),
        quantity: ClientMessages["bank:deposit"].shape.quantity.optional(),
        tab: ClientMessages["bank:tab"].shape.tab.optional(),
      })
      .strict(),
    async (m, extra) => {
      const need = (field: "slot" | "itemId" | "quantity" | "tab") => {
        if (m[field] === undefined) throw new ToolError("INVALID_PAYLOAD", `bank: ${field}: required to ${m.op}`);
      };
      if (m.op === "deposit") (need("slot"), need("quantity"));
      if (m.op === "withdraw") (need("itemId"), need("quantity"));
      if (m.op === "tab") (need("itemId"), need("tab"));
      const order =
        m.op === "deposit"
          ? { type: "bank:deposit" as const, data: { slot: m.slot!, quantity: m.quantity!, ...(m.tab !== undefined ? { tab: m.tab } : {}) } }
          : m.op === "withdraw"
            ? { type: "bank:withdraw" as const, data: { itemId: m.itemId!, quantity: m.quantity! } }
            : m.op === "tab"
              ? { type: "bank:tab" as const, data: { itemId: m.itemId!, tab: m.tab! } }
              : { type: "bank:release" as const, data: m.itemId !== undefined ? { itemId: m.itemId } : {} };
      return perform(s, extra, order, { ...afterTick, report: (pl) => ({ bank: pl.sight.self?.bank ?? null }) });
    },
  );

  tool(
    server,
    s,
    "make",
    'Make items from a recipe (production: smelting, smithing, crafting, fletching, runecrafting, tanning): count or "all", at stationId (walked to) when the recipe needs a station. Answers when the count is made or it stops (the reason), or after maxTicks while it goes on; reports progress after each item.',
    ClientMessages["production:make"].extend({ maxTicks }),
    async ({ maxTicks: ticks, ...m }, extra) => {
      const total = typeof m.count === "number" ? m.count : undefined;
      let attempts = 0;
      let making = false;
      return perform(
        s,
        extra,
        { type: "production:make", data: m },
        {
          maxTicks: ticks ?? DEFAULT_MAX_TICKS,
          until: (h) => {
            if (h.type !== "production:made") return undefined;
            attempts++;
            return h.data.remaining === 0 ? "done" : undefined;
          },
          settled: (pl) => {
            const now = pl.sight.self?.action === "make";
            const ended = making && !now;
            making ||= now;
            return ended;
          },
          progress: () => ({ progress: attempts, ...(total ? { total } : {}), message: `${attempts} made` }),
          report: (_pl, heard) => ({ attempts: heard.filter((h) => h.type === "production:made").length }),
        },
      );
    },
  );

  tool(
    server,
    s,
    "equip",
    "Wear or wield the item of a pack slot.",
    z.object({ slot: ClientMessages["inventory:use"].shape.slot }).strict(),
    async ({ slot }, extra) => perform(s, extra, { type: "inventory:use", data: { slot, action: "equip" } }, afterTick),
  );

  tool(
    server,
    s,
    "unequip",
    "Take off what is worn in an equipment slot (weapon, shield, helmet, body, legs, boots, gloves, cape, amulet, ring, arrows).",
    z.object({ slot: z.enum(EQUIPMENT_SLOTS) }).strict(),
    async ({ slot }, extra) => perform(s, extra, { type: "inventory:use", data: { slot: 0, action: "unequip", targetId: slot } }, afterTick),
  );

  tool(server, s, "eat", "Eat the food of a pack slot.", z.object({ slot: ClientMessages["inventory:use"].shape.slot }).strict(), async ({ slot }, extra) =>
    perform(s, extra, { type: "inventory:use", data: { slot, action: "eat" } }, afterTick),
  );

  tool(
    server,
    s,
    "use_item",
    'Use the item of a pack slot: action use (inferred), eat, equip, unequip, drop, cook (targetId: a fire\'s id or "range"), light (targetSlot: the logs, with a tinderbox), rub (a lamp, with skill), bury.',
    ClientMessages["inventory:use"],
    async (m, extra) => perform(s, extra, { type: "inventory:use", data: m }, afterTick),
  );

  tool(
    server,
    s,
    "cast",
    "Cast a combat spell at a target (an npc id, or your duel opponent), walking into reach; answers with the hit.",
    ClientMessages["combat:cast"].extend({ maxTicks }),
    async ({ maxTicks: ticks, ...m }, extra) =>
      perform(
        s,
        extra,
        { type: "combat:cast", data: m },
        {
          maxTicks: ticks ?? DEFAULT_MAX_TICKS,
          until: (h, pl) => (h.type === "combat:hit" && h.data.attackerId === pl.sight.self?.id ? "done" : undefined),
        },
      ),
  );

  tool(server, s, "prayer", "Turn a prayer on or off.", ClientMessages["prayer:toggle"], async (m, extra) =>
    perform(s, extra, { type: "prayer:toggle", data: m }, { ...afterTick, report: (pl) => ({ prayer: pl.sight.self?.prayer ?? null }) }),
  );

  tool(
    server,
    s,
    "setting",
    "Change one of your settings, kept with the character: autoRetaliate (true: fight back when something attacks you while you stand idle; false: keep standing). Answers your settings and state (vars).",
    ClientMessages["player:setting"],
    async (m, extra) => perform(s, extra, { type: "player:setting", data: m }, { ...afterTick, report: (pl) => ({ vars: pl.sight.self?.vars ?? {} }) }),
  );

  registerSocialTools(server, s);
  registerFeatureTools(server, s, featureTools);
}

/** What an `interact` waits for, by action. */
function interactWatch(p: McpPlayer, action: string, targetId: string | undefined, ticks: number | undefined): Watch {
  const maxTicks = ticks ?? DEFAULT_MAX_TICKS;
  const on =
    (...types: string[]): Watch["until"] =>
    (h) =>
      types.includes(h.type) ? "done" : undefined;
  switch (action) {
    case "gather":
      return {
        maxTicks,
        until: (h) => (h.type === "skill:xp" && (GATHERING_SKILLS as readonly string[]).includes(h.data.skill) ? "done" : undefined),
        progress: (pl, t) => ({ progress: t, message: pl.sight.self?.moving ? "walking to it" : "working it" }),
      };
    case "attack": {
      const startHealth = targetId ? p.sight.npcs.get(targetId)?.health : undefined;
      return {
        // A fight runs to its end by default (within the bound every call has).
        maxTicks: ticks ?? MAX_TICKS,
        until: (h) => (h.type === "npc:killed" || h.type === "player:death" || isNotice(h, "PVP_KILL") ? "done" : undefined),
        settled: (pl) => pl.sight.self?.action !== "attack" && !pl.sight.self?.moving && !pl.sight.npcs.has(targetId ?? ""),
        progress: (pl, t) => {
          const health = pl.sight.npcs.get(targetId ?? "")?.health;
          return {
            progress: t,
            message:
              health === undefined ? "fighting" : `target at ${health}${startHealth ? `/${startHealth}` : ""} hitpoints; you at ${pl.sight.self?.health}`,
          };
        },
        report: (pl) => ({ target: pl.sight.npcs.get(targetId ?? "") ?? null }),
      };
    }
    case "talk":
      return {
        maxTicks,
        until: on("dialogue:node", "store:open", "tanner:open", "bank:open"),
        stateAfter: true,
        report: (pl) => ({ dialogue: pl.sight.dialogue }),
      };
    case "store":
      return { maxTicks, until: on("store:open"), report: (pl) => ({ store: pl.sight.store }) };
    case "pray":
      return { maxTicks, until: (h) => (isNotice(h, "PRAYED") ? "done" : undefined) };
    case "pickup": {
      return { maxTicks, settled: (pl) => !pl.sight.groundItems.has(targetId ?? "") && pl.sight.self?.action !== "pickup" };
    }
    default:
      return afterTick;
  }
}
