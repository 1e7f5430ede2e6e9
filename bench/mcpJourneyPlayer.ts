/**
 * The player of the journey benchmark (bench/mcpJourney.ts): plays a world's quests to their end
 * through the MCP tools alone, the way a language model would, one call at a time: it reads what
 * the server offers a model (the tools' descriptions, the map and journal resources, each answer's
 * fields) and decides from that alone: the journal's target for the stage in force, the npc and
 * resource ids answers and the map name, the pack observe shows, the events and vitals every answer
 * carries. Nothing of the server's internals goes into a decision.
 *
 * Where a model would use common sense, so does it: the answer it picks in a conversation is the
 * first one that is not a farewell or a refusal; the weapon worth wielding is the pack's sword or
 * dagger, food is shrimp and the like; logs come from the plain tree (`tree_normal`), oak logs from
 * the oak (the map's resource ids), else it looks the item up in the catalogue resource.
 *
 * It also plays an older revision (the --compare run) as a model reading its answers would have
 * to: where `interact` takes only instance ids it finds them with `observe`; where answers carry no
 * vitals it fights in shorter spells and observes its health between them; where they carry no
 * events it reads the journal resource after each action.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Answered } from "./mcpEventLedger.js";
import { sum } from "./stats.js";

type Tile = { x: number; z: number };
type Body = Record<string, any>;

/** One tool call: what it cost in characters and time, and the quest it was made for. */
export interface CallRecord {
  n: number;
  tool: string;
  args: Record<string, unknown>;
  error: string | null;
  /** Characters of the answer's text content (what a model is shown). */
  textChars: number;
  /** Characters of its structuredContent as JSON. */
  structuredChars: number;
  ms: number;
  /** performance.now() when the call was made and when its answer came. */
  start: number;
  end: number;
  quest: string;
}

/** One resource read (no tool call, but a model reads it too). */
export interface ReadRecord {
  uri: string;
  chars: number;
  quest: string;
}

/** How far (tiles) the player trusts itself to see a thing: beyond it, it walks toward it first (observe lists things up to 30-40 tiles off). */
const SIGHT = 28;
/** A farewell or a refusal in a conversation (what a model pursuing a quest does not answer). */
const DECLINE = /\b(goodbye|not today|another time|no thanks|later|farewell|my bank)\b/i;
const WEAPON = /\b(sword|shortsword|longsword|scimitar|dagger|mace|battleaxe)\b/i;
const FOOD = /\b(shrimp|anchov|trout|salmon|bread|cake|meat|chicken|fish|pie)\b/i;

const dist = (a: Tile, b: Tile) => Math.max(Math.abs(a.x - b.x), Math.abs(a.z - b.z));
const nearest = <T extends Tile>(from: Tile, tiles: readonly T[]) => [...tiles].sort((a, b) => dist(from, a) - dist(from, b))[0] as T | undefined;

/** The MCP client as the journey uses it: every call and read counted. */
export class CountingSession {
  readonly calls: CallRecord[] = [];
  readonly reads: ReadRecord[] = [];
  readonly answers: Answered[] = [];
  /** Each answer's structuredContent, with its tool. */
  readonly bodies: Array<[string, Body]> = [];
  /** The quest the calls are made for now (the report's grouping). */
  quest = "";
  constructor(
    readonly client: Client,
    private readonly log: (line: string) => void,
  ) {}

  async call(tool: string, args: Record<string, unknown> = {}): Promise<{ error: string | null; body: Body; text: string }> {
    const t0 = performance.now();
    const r = (await this.client.callTool({ name: tool, arguments: args }, undefined, { resetTimeoutOnProgress: true, onprogress: () => {} })) as {
      isError?: boolean;
      structuredContent?: Body;
      content: Array<{ type: string; text?: string }>;
    };
    const at = performance.now();
    const text = r.content.map((c) => c.text ?? "").join("\n");
    const body = r.structuredContent ?? {};
    const error = r.isError ? (body.error?.code ?? text.split(":")[0]) : null;
    const n = this.calls.length + 1;
    this.calls.push({
      n,
      tool,
      args,
      error,
      textChars: text.length,
      structuredChars: JSON.stringify(body).length,
      ms: at - t0,
      start: t0,
      end: at,
      quest: this.quest,
    });
    this.bodies.push([tool, body]);
    this.answers.push({ call: n, tool, events: Array.isArray(body.events) ? body.events : undefined, eventsDropped: body.eventsDropped, at });
    this.log(`  #${n} ${tool} ${JSON.stringify(args)} → ${error ?? summary(body)} (${text.length} chars, ${Math.round(at - t0)} ms)`);
    return { error, body, text };
  }

  async read(uri: string): Promise<any> {
    const r = await this.client.readResource({ uri });
    const text = r.contents.map((c) => ("text" in c ? String(c.text) : "")).join("");
    this.reads.push({ uri, chars: text.length, quest: this.quest });
    this.log(`  read ${uri} (${text.length} chars)`);
    return JSON.parse(text);
  }
}

/** A line of what an answer said, for the step log. */
function summary(b: Body): string {
  const parts: string[] = [];
  if (b.dialogue?.text) parts.push(`"${b.dialogue.text.slice(0, 60)}"`);
  if (b.gained && Object.keys(b.gained).length) parts.push(`gained ${JSON.stringify(b.gained)}`);
  for (const e of b.events ?? [])
    if (/^quest:|npc:killed|player:death/.test(e.kind))
      parts.push(`${e.kind}${e.questId ? ` ${e.questId}` : ""}${e.count !== undefined ? ` ${e.count}/${e.needed}` : ""}`);
  if (b.vitals) parts.push(`hp ${b.vitals.health}/${b.vitals.maxHealth} at ${b.vitals.position.x},${b.vitals.position.z}`);
  if (b.you) parts.push(`observe at ${b.you.x},${b.you.z}`);
  return parts.join("; ") || (b.done === false ? "not done" : "ok");
}

/** A quest as the player tracks it: the journal's entry (started) or the quest list's (not started). */
interface QuestStanding {
  questId: string;
  name: string;
  status: string;
  target: { type: string; id: string } | null;
  count?: number;
  needed?: number;
}

/** What the journey ended with. */
export interface Played {
  completed: Array<{ questId: string; name: string; atCall: number; atMs: number }>;
  failure: string | null;
  character: string;
  /** Characters of the tools' list (names, descriptions, schemas): what a model is given before its first call. */
  toolsChars: number;
  /** Of which the tools' output schemas. */
  outputSchemaChars: number;
  /** Each time the journal resource was behind the quest events an answer had brought: the ms until it caught up. */
  journalBehind: number[];
  /** Whether the server's answers carried events (older revisions' did not). */
  eventsInAnswers: boolean;
  kindIds: boolean;
}

/**
 * Play every quest reachable from the start (in the journal's order) to its completion. `limit`
 * bounds the calls (a journey that loops fails instead of running on).
 */
export async function playQuests(s: CountingSession, log: (line: string) => void, limit = 80): Promise<Played> {
  // What a model is given before it plays: the tools (with their descriptions), the map.
  const tools = (await s.client.listTools()).tools;
  const interactTool = tools.find((t) => t.name === "interact");
  /** Whether `interact` takes a kind id (an npc's npcId, a resourceId) for the nearest one in view, as its description says. */
  const kindIds = /kind id/i.test(interactTool?.description ?? "");
  const map = await s.read("arena://world/map");
  const started = performance.now();

  let me: Tile = map.spawn ?? { x: 0, z: 0 };
  let health = 1;
  let maxHealth = 1;
  let character = "";
  let eventsInAnswers = false;
  let vitalsInAnswers = false;
  /** The pack as last observed, kept up to date from the answers' `gained` (an item that came lies in a slot not known until the next observe). */
  let pack: Array<{ slot: number | null; itemId: string; name: string; quantity: number }> | null = null;
  let worn: Record<string, { itemId: string }> = {};
  let near: Body = {};
  let journal: QuestStanding[] = [];
  let journalStale = true;
  let died = false;
  const completed: Played["completed"] = [];
  /** Quest events of the current conversation or action (started, stage, completed, progress). */
  let questNews = 0;
  /** What the answers' quest events said of each quest: the journal resource should say as much. */
  const told = new Map<string, { stage: number; completed: boolean }>();
  /** Each time the journal was behind the events an answer had already brought: how long (ms) until it caught up. */
  const journalBehind: number[] = [];

  /** Take in what every answer carries: the vitals, the events (quest progress, a death). */
  const call = async (tool: string, args: Record<string, unknown> = {}) => {
    const r = await s.call(tool, args);
    const v = r.body.vitals;
    vitalsInAnswers ||= !!v;
    if (v) {
      me = v.position;
      health = v.health;
      maxHealth = v.maxHealth;
    }
    if (r.body.you) {
      me = { x: r.body.you.x, z: r.body.you.z };
      character = r.body.you.name;
      health = r.body.you.health;
      maxHealth = r.body.you.maxHealth;
      pack = r.body.pack;
      worn = r.body.worn ?? {};
      near = r.body.near ?? {};
    }
    if (Array.isArray(r.body.events)) eventsInAnswers ||= tool !== "observe";
    if (pack && r.body.gained && !r.body.you) follow(r.body.gained, typeof args.slot === "number" ? args.slot : undefined);
    for (const e of r.body.events ?? []) {
      if (e.kind === "quest:started" || e.kind === "quest:stage" || e.kind === "quest:completed") {
        journalStale = true;
        questNews++;
        const was = told.get(e.questId);
        told.set(e.questId, { stage: Math.max(was?.stage ?? 0, e.stage ?? 0), completed: e.kind === "quest:completed" || (was?.completed ?? false) });
        if (e.kind === "quest:completed" && !completed.some((c) => c.questId === e.questId)) {
          completed.push({ questId: e.questId, name: e.name, atCall: s.calls.length, atMs: performance.now() - started });
          log(`  ✓ ${e.name} completed`);
        }
      } else if (e.kind === "quest:progress") {
        questNews++;
        const q = journal.find((j) => j.questId === e.questId);
        if (q) q.count = e.count;
      } else if (e.kind === "player:death") died = true;
    }
    // Answers without events (an older server): the journal resource says what changed.
    if (!eventsInAnswers && tool !== "quest_journal" && tool !== "observe") journalStale = true;
    return r;
  };

  /** Whether the journal says at least what the answers' quest events did. */
  const journalKnows = (quests: Body[]) =>
    [...told].every(([id, t]) => {
      const q = quests.find((x) => x.questId === id);
      return q && (t.completed ? q.status === "completed" : q.status === "completed" || q.stage >= t.stage);
    });

  /** What `gained` says came and went: a stack grows or shrinks in place, the slot used gives up its item, a new item's slot is unknown. */
  const follow = (gained: Record<string, number>, slotUsed: number | undefined) => {
    if (!pack) return;
    for (const [itemId, d] of Object.entries(gained)) {
      const held = pack.filter((h) => h.itemId === itemId);
      const stack = held.find((h) => h.quantity > 1 || itemId === "coins");
      if (d > 0) {
        if (stack) stack.quantity += d;
        else pack.push({ slot: null, itemId, name: itemId, quantity: d });
        continue;
      }
      const used = held.find((h) => h.slot === slotUsed) ?? (held.length === 1 ? held[0] : undefined);
      if (used && used.quantity + d > 0) used.quantity += d;
      else if (used) pack.splice(pack.indexOf(used), 1);
      else for (const h of held) h.slot = null; // which of them went is not known
    }
  };

  /** The slot of the pack item `fits` picks: from what is known, else observed. */
  const slotOf = async (fits: (i: { itemId: string; name: string }) => boolean): Promise<number | undefined> => {
    const known = pack?.find((i) => fits(i) && i.slot !== null);
    if (known) return known.slot!;
    if (pack && !pack.some((i) => i.slot === null)) return undefined;
    await observe();
    return pack?.find((i) => fits(i) && i.slot !== null)?.slot ?? undefined;
  };

  const readJournal = async () => {
    const before = JSON.stringify(journal);
    const asked = performance.now();
    let j = await s.read("arena://character/quests");
    // An answer told of a quest the journal does not show yet: a model would read it on its next
    // turn, seconds later; the reads that came too soon are not counted as read.
    for (let i = 0; i < 50 && !journalKnows(j.quests ?? []); i++) {
      if (i === 0) journalBehind.push(0);
      s.reads.pop();
      await new Promise((r) => setTimeout(r, 50));
      j = await s.read("arena://character/quests");
      journalBehind[journalBehind.length - 1] = performance.now() - asked;
    }
    character ||= j.character ?? "";
    journal = (j.quests ?? []).map((q: Body) => ({ questId: q.questId, name: q.name, status: q.status, target: q.target, count: q.count, needed: q.needed }));
    journalStale = false;
    // An older server's answers told no quest events: the journal's change is the news.
    if (!eventsInAnswers && JSON.stringify(journal) !== before) {
      questNews++;
      for (const q of journal)
        if (q.status === "completed" && !completed.some((c) => c.questId === q.questId)) {
          completed.push({ questId: q.questId, name: q.name, atCall: s.calls.length, atMs: performance.now() - started });
          log(`  ✓ ${q.name} completed`);
        }
    }
  };

  // The world's quests (those not started too: their start npc and what they require).
  const list: Body[] = (await call("quest_journal")).body.quests ?? [];
  await readJournal();

  const current = (): QuestStanding | undefined => {
    const under = journal.find((q) => q.status === "in_progress" || q.status === "ready_to_complete");
    if (under) return under;
    const done = new Set(journal.filter((q) => q.status === "completed").map((q) => q.questId));
    const next = list.find((q) => !journal.some((j) => j.questId === q.questId) && (q.requirements?.quests ?? []).every((id: string) => done.has(id)));
    return next && next.startNpc ? { questId: next.questId, name: next.name, status: "not_started", target: { type: "talk", id: next.startNpc } } : undefined;
  };

  const observe = async () => call("observe");

  /** Walk toward a tile (running), trying the tiles around it if it cannot be stood on. */
  const walkTo = async (t: Tile) => {
    for (const [dx, dz] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [-1, 0],
      [0, -1],
      [2, 2],
      [-2, -2],
    ]) {
      const r = await call("move_to", { x: t.x + dx, z: t.z + dz, run: true });
      if (!r.error) return r;
      if (r.error !== "BLOCKED" && r.error !== "NO_PATH") throw new Error(`move_to refused: ${r.text}`);
    }
    throw new Error(`no way to ${t.x},${t.z}`);
  };

  /** The instance to act on: the kind id itself when `interact` takes kind ids, else the nearest of the kind observe lists. */
  const idFor = async (list: "npcs" | "resources", kindKey: "npcId" | "resourceId", kind: string, refresh = false) => {
    if (kindIds && !refresh) return kind;
    if (refresh || !near[list]?.some((x: Body) => x[kindKey] === kind)) await observe();
    return near[list]?.find((x: Body) => x[kindKey] === kind)?.id as string | undefined;
  };

  const talkTo = async (npcKind: string) => {
    const folk = map.townsfolk?.find((t: Body) => t.npcId === npcKind);
    if (folk && dist(me, folk) > SIGHT) await walkTo(folk);
    const news = questNews;
    let r = await call("interact", { action: "talk", targetId: kindIds ? npcKind : (folk?.id ?? npcKind) });
    if (r.error === "UNKNOWN_TARGET" && folk) {
      await walkTo(folk);
      r = await call("interact", { action: "talk", targetId: kindIds ? npcKind : folk.id });
    }
    if (r.error) throw new Error(`talk to ${npcKind} refused: ${r.text}`);
    let node = r.body.dialogue;
    for (let i = 0; i < 6 && node?.responses?.length; i++) {
      if (journalStale) await readJournal();
      if (questNews !== news) break; // the quest moved on: the conversation has done its work
      const pick = node.responses.find((x: Body) => !DECLINE.test(x.text));
      if (!pick) break;
      r = await call("dialogue_respond", { index: pick.index });
      if (r.error) throw new Error(`dialogue_respond refused: ${r.text}`);
      node = r.body.dialogue;
    }
    if (journalStale) await readJournal();
    return questNews !== news;
  };

  const armed = { checked: false };
  const arm = async () => {
    if (armed.checked) return;
    const slot = await slotOf((i) => WEAPON.test(i.name) || WEAPON.test(i.itemId.replace(/_/g, " ")));
    armed.checked = true;
    if (worn.weapon || slot === undefined) return;
    await call("equip", { slot });
  };

  /** Eat while under 60 % of health (twice at most), before a fight goes on. */
  const eatIfLow = async () => {
    for (let i = 0; i < 2 && health < maxHealth * 0.6; i++) {
      const slot = await slotOf((x) => FOOD.test(x.name));
      if (slot === undefined) return;
      await call("eat", { slot });
    }
  };

  const fight = async (npcKind: string) => {
    await arm();
    await eatIfLow();
    const spawns: Tile[] = map.npcSpawns?.find((n: Body) => n.npcId === npcKind)?.tiles ?? [];
    const spawn = nearest(me, spawns);
    if (spawn && dist(me, spawn) > SIGHT) await walkTo(spawn);
    const gone = new Set(["UNKNOWN_TARGET", "NOT_ATTACKABLE", "TARGET_DEAD"]);
    let targetId = await idFor("npcs", "npcId", npcKind);
    // Answers without vitals (an older server) tell nothing of one's health during a fight: fight in shorter spells, looking between them.
    const spell = vitalsInAnswers ? 90 : 30;
    for (let round = 0; round < 8; round++) {
      let r = targetId
        ? await call("interact", { action: "attack", targetId, maxTicks: spell })
        : { error: "UNKNOWN_TARGET", text: "none in view", body: {} as Body };
      if (r.error && gone.has(r.error)) {
        // None in view (all down, respawning): look, or try the next spawn.
        targetId = await idFor("npcs", "npcId", npcKind, true);
        if (!targetId) {
          const other = spawns.filter((t) => dist(t, me) > 6);
          if (other.length) await walkTo(nearest(me, other)!);
          return;
        }
        r = await call("interact", { action: "attack", targetId, maxTicks: spell });
      }
      if (r.error && !gone.has(r.error)) throw new Error(`attack refused: ${r.text}`);
      if (r.error) return;
      // The foe fell: its id, as the last observe listed it, is no one to attack now.
      if (r.body.done !== false) {
        if (near.npcs) near.npcs = near.npcs.filter((x: Body) => x.id !== targetId);
        return;
      }
      // The fight goes on: look at one's health, eat, and carry on with the same foe (by its instance id now).
      if (!vitalsInAnswers) await observe();
      await eatIfLow();
      targetId = r.body.resolved?.targetId ?? targetId;
    }
  };

  /** The resource an item is gathered from: by the map's naming (logs: the plain tree, oak_logs: tree_oak, copper_ore: ore_copper), else the catalogue's `yields`. */
  const sourceOf = async (itemId: string): Promise<string | undefined> => {
    const spots: Body[] = map.resourceSpots ?? [];
    const word = itemId.match(/^(?:(\w+)_)?(logs|ore)$/);
    if (word) {
      const family = word[2] === "logs" ? "tree" : "ore";
      const hit = spots.find((r) => r.resourceId === `${family}_${word[1] ?? "normal"}`);
      if (hit) return hit.resourceId;
    }
    const catalogue = await s.read("arena://world/catalogue");
    return catalogue.resources?.find((r: Body) => (r.yields ?? []).includes(itemId))?.id;
  };
  const sources = new Map<string, string | undefined>();

  const gather = async (itemId: string) => {
    if (!sources.has(itemId)) sources.set(itemId, await sourceOf(itemId));
    const source = sources.get(itemId);
    if (!source) throw new Error(`no resource yields ${itemId}`);
    const tiles: Tile[] = map.resourceSpots?.find((r: Body) => r.resourceId === source)?.tiles ?? [];
    const spot = nearest(me, tiles);
    if (spot && dist(me, spot) > SIGHT + 10) await walkTo({ x: spot.x + 1, z: spot.z + 1 });
    let targetId = await idFor("resources", "resourceId", source);
    let r = targetId ? await call("interact", { action: "gather", targetId, maxTicks: 90 }) : { error: "UNKNOWN_TARGET", text: "none in view", body: {} };
    if (r.error === "DEPLETED" || r.error === "UNKNOWN_TARGET") {
      targetId = await idFor("resources", "resourceId", source, true);
      if (!targetId) {
        if (spot) await walkTo({ x: spot.x + 1, z: spot.z + 1 });
        return;
      }
      r = await call("interact", { action: "gather", targetId, maxTicks: 90 });
    }
    if (r.error && r.error !== "DEPLETED" && r.error !== "UNKNOWN_TARGET") throw new Error(`gather refused: ${r.text}`);
  };

  let failure: string | null = null;
  let idleTalks = 0;
  try {
    for (;;) {
      if (s.calls.length >= limit) throw new Error(`still not done after ${limit} calls`);
      if (died) throw new Error("the player died");
      if (journalStale) await readJournal();
      const q = current();
      if (!q) break;
      s.quest = q.name;
      const t = q.target;
      if (!t) throw new Error(`${q.name}: the journal names nothing to do`);
      if (t.type === "talk") {
        if (await talkTo(t.id)) idleTalks = 0;
        else if (++idleTalks >= 2) throw new Error(`${q.name}: talking to ${t.id} leads nowhere`);
      } else if (t.type === "kill") await fight(t.id);
      else if (t.type === "gather") await gather(t.id);
      else throw new Error(`${q.name}: a stage of type ${t.type} is not played`);
    }
  } catch (err) {
    failure = err instanceof Error ? err.message : String(err);
  }
  return {
    completed,
    failure,
    character,
    eventsInAnswers,
    kindIds,
    journalBehind,
    toolsChars: JSON.stringify({ tools }).length,
    outputSchemaChars: sum(tools.map((t) => (t.outputSchema ? JSON.stringify(t.outputSchema).length : 0))),
  };
}
