import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { GroundItemState, NpcState, PlayerState, ResourceState, StationState } from "../../schema/WorldState.js";
import { assertTradeQuantity, offerRemove } from "../../src/game/trade.js";
import { GameError } from "../../src/game/types.js";
import { codeOf } from "../game/fixtures.js";
import {
  AuthenticateData,
  ClientMessages,
  CLOSE_CODES,
  describeZodError,
  Envelope,
  ERROR_CODES,
  INVENTORY_SIZE,
  JoinOptions,
  MAX_STACK,
  NOTICE_CODES,
  ResumeData,
  RoomMessages,
  SERVER_MESSAGE_TYPES,
  TRADE_CANCEL_REASONS,
  TRADE_ROOM_MESSAGES,
  TradeMessages,
  DuelMessages,
  type GroundItemView,
  type StationView,
  type NpcView,
  type PlayerView,
  type ResourceView,
  type RoomMessage,
  type RoomMessageType,
  type ServerMessageType,
} from "../../src/protocol/index.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const protocolDir = join(root, "src/protocol");

// ---- Compile-time checks (npm run typecheck) ----

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type JsonOf<T extends { toJSON(): unknown }> = ReturnType<T["toJSON"]>;
/** The entities of world:update are the schema classes' JSON, field for field. */
const sameAsSchema: [
  Same<JsonOf<PlayerState>, PlayerView>,
  Same<JsonOf<NpcState>, NpcView>,
  Same<JsonOf<ResourceState>, ResourceView>,
  Same<JsonOf<GroundItemState>, GroundItemView>,
  Same<JsonOf<StationState>, StationView>,
] = [true, true, true, true, true];
/** SERVER_MESSAGE_TYPES names every server message. */
const everyServerType: Same<(typeof SERVER_MESSAGE_TYPES)[number], ServerMessageType> = true;

/** A valid example of every message a client may send to the world room. */
const VALID: { [K in RoomMessageType]: RoomMessage<K> } = {
  "player:move": { x: 103, z: -7.5, run: true },
  "player:action": { action: "style", style: "defensive" },
  "player:chat": { message: "hello", channel: "world" },
  "inventory:use": { slot: 0, targetSlot: INVENTORY_SIZE - 1, action: "light" },
  "bank:deposit": { slot: INVENTORY_SIZE - 1, quantity: MAX_STACK },
  "bank:withdraw": { itemId: "logs", quantity: 1 },
  "bank:tab": { itemId: "logs", tab: 9 },
  "bank:release": {},
  "dialogue:respond": { index: 0 },
  "dialogue:close": {},
  "store:buy": { itemId: "bronze_hatchet", quantity: 1 },
  "store:sell": { slot: INVENTORY_SIZE - 1, quantity: 10 },
  "store:close": {},
  "production:make": { kind: "smithing", recipeId: "bronze_dagger", count: "all", stationId: "station:brindlemere:brindlemere_anvil" },
  "player:report": { name: "Mudfoot", reason: "abusive language in local chat" },
  "combat:cast": { spellId: "wind_strike", targetId: "npc_1" },
  "combat:autocast": { spellId: null },
  "prayer:toggle": { prayerId: "thick_skin", on: true },
  "player:setting": { name: "autoRetaliate", value: false },
  "player:homeTeleport": {},
  "agility:cross": { obstacleId: "obstacle:thornwood_trail:mossy_log" },
  "thieving:pickpocket": { npcId: "npc_1" },
  "thieving:steal": { stallId: "stall:fish_stall" },
  "travel:ride": { npcId: "npc:brindlemere:cartwright_odo" },
  tradeRequest: { targetPlayerId: "c_1" },
  tradeRequestRespond: { tradeId: "t_1", accept: true },
  tradeAddItem: { tradeId: "t_1", inventorySlot: 3, quantity: 5 },
  tradeRemoveItem: { tradeId: "t_1", inventorySlot: 3 },
  tradeAccept: { tradeId: "t_1" },
  tradeCancel: { tradeId: "t_1" },
  "duel:challenge": { targetPlayerId: "c_1" },
  "duel:respond": { duelId: "d_1", accept: true },
  "duel:rule": { duelId: "d_1", rule: "noFood", on: true },
  "duel:stake": { duelId: "d_1", inventorySlot: 3, quantity: 5 },
  "duel:unstake": { duelId: "d_1", inventorySlot: 3 },
  "duel:accept": { duelId: "d_1" },
  "duel:cancel": { duelId: "d_1" },
  "duel:forfeit": { duelId: "d_1" },
};

const accepts = (schema: { safeParse(v: unknown): { success: boolean } }, value: unknown) =>
  assert.equal(schema.safeParse(value).success, true, `accepts ${JSON.stringify(value)}`);
const refuses = (schema: { safeParse(v: unknown): { success: boolean } }, value: unknown) =>
  assert.equal(schema.safeParse(value).success, false, `refuses ${JSON.stringify(value)}`);

/** Quantities no schema may take: none, negative, fractional, over MAX_STACK, not finite, not a number. */
const BAD_QUANTITIES = [0, -1, -MAX_STACK, 1.5, MAX_STACK + 1, Number.MAX_SAFE_INTEGER, Infinity, NaN, "5", null, true];
/** Slots no schema may take: past the inventory, negative, fractional, not a number. */
const BAD_SLOTS = [INVENTORY_SIZE, INVENTORY_SIZE + 1, 1_000_000, -1, 0.5, NaN, "3", null];

/** Every file under `dir` with one of the extensions. */
function filesUnder(dir: string, ext = ".ts"): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name), ext) : e.name.endsWith(ext) ? [join(dir, e.name)] : [],
  );
}

describe("src/protocol: the wire contract", () => {
  it("holds the compile-time checks (schema JSON = entity views; every server type listed)", () => {
    assert.deepEqual(sameAsSchema, [true, true, true, true, true]);
    assert.equal(everyServerType, true);
    assert.equal(new Set(SERVER_MESSAGE_TYPES).size, SERVER_MESSAGE_TYPES.length);
  });

  describe("client → server schemas", () => {
    it("every room message has a valid example that its schema accepts, and refuses a non-object, an unknown key, a wrong type", () => {
      assert.deepEqual(Object.keys(VALID).sort(), Object.keys(RoomMessages).sort());
      for (const [type, example] of Object.entries(VALID) as Array<[RoomMessageType, Record<string, unknown>]>) {
        const schema = RoomMessages[type];
        accepts(schema, example);
        refuses(schema, undefined);
        refuses(schema, "text");
        refuses(schema, [example]);
        refuses(schema, { ...example, extra: 1 });
        // Each field given the wrong type (a trade's or a stake's slot and quantity, and a duel rule, are the rules' to refuse, below).
        for (const key of Object.keys(example)) {
          if ((type in TradeMessages || type in DuelMessages) && (key === "inventorySlot" || key === "quantity")) continue;
          if (type === "duel:rule" && (key === "rule" || key === "on")) continue;
          refuses(schema, { ...example, [key]: { nested: true } });
        }
      }
    });

    it("the world room, the trades and the duels keep their own maps; the trade room takes the moves of an open trade", () => {
      assert.deepEqual(Object.keys(RoomMessages).sort(), [...Object.keys(ClientMessages), ...Object.keys(TradeMessages), ...Object.keys(DuelMessages)].sort());
      for (const t of TRADE_ROOM_MESSAGES) assert.ok(t in TradeMessages);
      assert.ok(!(TRADE_ROOM_MESSAGES as readonly string[]).includes("tradeRequest"));
    });

    it("slots are whole numbers from 0 to INVENTORY_SIZE - 1", () => {
      const slotFields = [
        [ClientMessages["inventory:use"], { slot: 0 }, "slot"],
        [ClientMessages["inventory:use"], { slot: 0 }, "targetSlot"],
        [ClientMessages["bank:deposit"], { slot: 0, quantity: 1 }, "slot"],
        [ClientMessages["store:sell"], { slot: 0, quantity: 1 }, "slot"],
      ] as const;
      for (const [schema, base, field] of slotFields) {
        accepts(schema, { ...base, [field]: 0 });
        accepts(schema, { ...base, [field]: INVENTORY_SIZE - 1 });
        for (const bad of BAD_SLOTS) refuses(schema, { ...base, [field]: bad });
      }
    });

    it("quantities are whole numbers from 1 to MAX_STACK", () => {
      const quantityFields = [
        [ClientMessages["inventory:use"], { slot: 0, action: "drop" }],
        [ClientMessages["bank:deposit"], { slot: 0 }],
        [ClientMessages["bank:withdraw"], { itemId: "logs" }],
        [ClientMessages["store:buy"], { itemId: "logs" }],
        [ClientMessages["store:sell"], { slot: 0 }],
      ] as const;
      for (const [schema, base] of quantityFields) {
        accepts(schema, { ...base, quantity: 1 });
        accepts(schema, { ...base, quantity: MAX_STACK });
        for (const bad of BAD_QUANTITIES) refuses(schema, { ...base, quantity: bad });
      }
      refuses(ClientMessages["bank:deposit"], { slot: 0 });
      refuses(ClientMessages["bank:withdraw"], { itemId: "logs" });
      refuses(ClientMessages["store:buy"], { itemId: "logs" });
      refuses(ClientMessages["store:sell"], { slot: 0 });
    });

    it("trade offers: the schema lets slots and quantities through to the trade rules, which refuse bad ones as INVALID_SLOT / INVALID_QUANTITY", () => {
      for (const type of ["tradeAddItem", "tradeRemoveItem"] as const) {
        accepts(TradeMessages[type], { tradeId: "t_1", inventorySlot: INVENTORY_SIZE, quantity: -1 });
        refuses(TradeMessages[type], { inventorySlot: 0, quantity: 1 });
        refuses(TradeMessages[type], { tradeId: 7, inventorySlot: 0, quantity: 1 });
        refuses(TradeMessages[type], { tradeId: "", inventorySlot: 0, quantity: 1 });
      }
      for (const bad of BAD_QUANTITIES)
        assert.equal(
          codeOf(() => assertTradeQuantity(bad)),
          "INVALID_QUANTITY",
          `quantity ${String(bad)}`,
        );
      assert.equal(
        codeOf(() => assertTradeQuantity(MAX_STACK)),
        undefined,
      );
      for (const bad of BAD_SLOTS)
        assert.equal(
          codeOf(() => offerRemove([], bad)),
          "INVALID_SLOT",
          `slot ${String(bad)}`,
        );
      assert.equal(
        codeOf(() => offerRemove([], INVENTORY_SIZE - 1)),
        "NOT_OFFERED",
      );
    });

    it("field rules: coordinates finite and bounded, enums closed, ids 1-128 characters, chat at most 1000", () => {
      const move = ClientMessages["player:move"];
      for (const bad of [Infinity, NaN, 1_000_001, -1_000_001, "3"]) refuses(move, { x: bad, z: 0 });
      refuses(move, { x: 1 });
      refuses(ClientMessages["player:action"], { action: "fly" });
      refuses(ClientMessages["player:action"], { action: "style", style: "reckless" });
      refuses(ClientMessages["player:action"], { action: "attack", targetId: "" });
      refuses(ClientMessages["player:action"], { action: "attack", targetId: "x".repeat(129) });
      accepts(ClientMessages["player:action"], { action: "attack", targetId: "x".repeat(128) });
      refuses(ClientMessages["player:chat"], { message: "x".repeat(1001) });
      refuses(ClientMessages["player:chat"], { message: "hi", channel: "guild" });
      refuses(ClientMessages["inventory:use"], { slot: 0, action: "juggle" });
      refuses(TradeMessages.tradeRequestRespond, { tradeId: "t_1", accept: "yes" });
      refuses(TradeMessages.tradeRequest, { targetPlayerId: "" });
    });

    it("join options, the /ws envelope, authenticate and resume", () => {
      accepts(JoinOptions, {});
      accepts(JoinOptions, { characterId: "c_1", name: "Alice", worldUpdates: true, clientType: "agent", somethingElse: 1 });
      refuses(JoinOptions, { worldUpdates: "yes" });
      refuses(JoinOptions, { clientType: "browser" });
      refuses(JoinOptions, { characterId: "" });
      accepts(Envelope, { type: "player:move", data: { x: 1, z: 2 }, id: "m1" });
      accepts(Envelope, { type: "ping" });
      refuses(Envelope, { type: "", data: {} });
      refuses(Envelope, { type: "x".repeat(65) });
      refuses(Envelope, { type: "ping", id: 5 });
      refuses(Envelope, { type: "ping", extra: true });
      accepts(AuthenticateData, { token: "abc", characterId: "c_1" });
      refuses(AuthenticateData, { token: "" });
      refuses(AuthenticateData, { token: "x".repeat(8193) });
      refuses(AuthenticateData, { token: "abc", extra: 1 });
      accepts(ResumeData, { resumeToken: "x".repeat(43) });
      refuses(ResumeData, { resumeToken: "" });
      refuses(ResumeData, { resumeToken: 5 });
      refuses(ResumeData, { resumeToken: "abc", token: "abc" });
      refuses(ResumeData, {});
    });

    it("describeZodError names the field and the reason", () => {
      const r = ClientMessages["player:move"].safeParse({ x: "bad", z: 1 });
      assert.equal(r.success, false);
      assert.match(describeZodError(r.error!), /^x: /);
    });
  });

  describe("codes", () => {
    it("every close code is unique and a valid WebSocket close code (1000-1015 or 4000-4999)", () => {
      const values = Object.values(CLOSE_CODES);
      assert.equal(new Set(values).size, values.length, `duplicates in ${JSON.stringify(CLOSE_CODES)}`);
      for (const [name, code] of Object.entries(CLOSE_CODES)) assert.ok((code >= 1000 && code <= 1015) || (code >= 4000 && code <= 4999), `${name} = ${code}`);
      assert.equal(CLOSE_CODES.REPLACED, 4100);
      assert.equal(CLOSE_CODES.KICKED, 4101);
      assert.equal(CLOSE_CODES.UNAUTHORIZED, 4001);
      assert.equal(CLOSE_CODES.FLOOD, 4029);
      assert.equal(CLOSE_CODES.TOO_BIG, 1009);
    });

    it("error codes, notice codes and trade cancel reasons are unique, and error codes are UPPER_SNAKE", () => {
      for (const list of [Object.keys(ERROR_CODES), [...NOTICE_CODES], [...TRADE_CANCEL_REASONS]])
        assert.equal(new Set(list).size, list.length, `duplicates in ${list.join(", ")}`);
      for (const code of [...Object.keys(ERROR_CODES), ...NOTICE_CODES]) assert.match(code, /^[A-Z][A-Z0-9_]*$/);
      for (const reason of TRADE_CANCEL_REASONS) assert.match(reason, /^[a-z][a-z_]*$/);
    });

    it("every code a rule refuses with (GameError / TradeError in src and rooms) is in ERROR_CODES", () => {
      // Guards of the pure rules against the server's own mistakes: no client input reaches them.
      const guards = new Set([
        "INVALID_LEVEL",
        "INVALID_XP",
        "UNKNOWN_SKILL",
        "INVALID_HEALTH",
        "INVALID_RANGE",
        "INVALID_PROBABILITY",
        "INVALID_STATION",
        "INVALID_ITEM",
        "INVALID_MESSAGE",
        "NOT_ENOUGH_ITEMS",
        "OFFER_CHANGED",
      ]);
      const missing: string[] = [];
      for (const file of [...filesUnder(join(root, "src")), ...filesUnder(join(root, "rooms"))]) {
        const text = readFileSync(file, "utf8");
        for (const m of text.matchAll(/new (?:Game|Trade)Error\(\s*"([A-Z0-9_]+)"/g)) {
          if (!(m[1] in ERROR_CODES) && !guards.has(m[1])) missing.push(`${relative(root, file)}: ${m[1]}`);
        }
      }
      assert.deepEqual(missing, []);
    });
  });

  describe("browser-safe", () => {
    it("src/protocol imports nothing but zod and its own files, and uses no Node module or global", () => {
      const files = filesUnder(protocolDir);
      assert.ok(files.length >= 4);
      const problems: string[] = [];
      for (const file of files) {
        const text = readFileSync(file, "utf8");
        const name = relative(root, file);
        // import … from "x", export … from "x", import "x", import("x"), require("x")
        // (a specifier holds no space or comma: a menu's word such as "Steal-from" is no import)
        const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']([^"'\s,]+)["']/g)].map((m) => m[1]);
        for (const spec of specifiers) {
          if (spec === "zod") continue;
          if (spec.startsWith(".")) {
            const target = resolve(dirname(file), spec);
            if (relative(protocolDir, target).startsWith("..")) problems.push(`${name} imports ${spec}, outside src/protocol`);
            continue;
          }
          problems.push(`${name} imports ${spec}`);
        }
        for (const global of ["process", "Buffer", "__dirname", "__filename", "require", "globalThis"]) {
          if (new RegExp(`\\b${global}\\b\\s*[.([]`).test(text)) problems.push(`${name} uses ${global}`);
        }
      }
      assert.deepEqual(problems, []);
    });
  });
});
