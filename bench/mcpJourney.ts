/**
 * The MCP journey benchmark: the default world's first two quests (The Warden's Letter, then
 * Mudfoot Menace) played to their end through /mcp alone, as a language model plays them: observe,
 * decide from the answer's fields, act (bench/mcpJourneyPlayer.ts: no knowledge of the server's
 * internals goes into a decision). One run starts a test server in this process, gets a guest
 * token, connects the MCP SDK's own Client over real HTTP (StreamableHTTPClientTransport), plays,
 * and prints per quest and in total:
 *   - tool calls;
 *   - answer characters: each answer's text content (what a model is shown); the structuredContent
 *     JSON beside it (the same object again) and the resources read (map, journal) are printed
 *     apart;
 *   - wall time;
 * and whether the issue's targets are met (both quests in at most 25 calls and 25,000 answer
 * characters). It checks every event the server told the player (tapped in-process on the MCP
 * session's room client, bench/mcpEventLedger.ts) reached exactly one answer's `events`, folded as
 * docs/MCP.md says, and prints "events told: N, in answers: N, missed: 0, duplicated: 0" or the
 * offending events. It exits 1 when the quests were not both completed or an event was missed or
 * duplicated.
 *
 * --compare <rev> plays the same journey, in a child process, against `rev` checked out in a
 * temporary worktree (bench/worktree.ts; e.g. 2861d19^, before answers carried events), and prints
 * both revisions' figures, with the issue's own figures for the model's journey before the rework.
 *
 * Usage: npm run bench:mcp-journey [-- --steps true --compare 2861d19^]
 *   --steps true   print every call with its answer's size
 *   (--root <dir> --json true: what --compare's child is run with: play <dir>'s server, print the report as JSON)
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ROOT } from "../src/paths.js";
import { benchArgs } from "./args.js";
import { checkLedger, EventTap, type LedgerReport } from "./mcpEventLedger.js";
import { CountingSession, playQuests, type CallRecord, type Played } from "./mcpJourneyPlayer.js";
import { fmt, sum, table } from "./stats.js";
import { checkout } from "./worktree.js";

const a = benchArgs("npm run bench:mcp-journey", { compare: undefined, steps: "false", root: undefined, json: "false" });
const TARGET_CALLS = 25;
const TARGET_CHARS = 25_000;
/** What the issue recorded of a model's journey through the same two quests before the answers were reworked. */
const ISSUE_BEFORE = { calls: 31, chars: 112_000 };
const QUESTS = ["The Warden's Letter", "Mudfoot Menace"];

console.warn = () => {};

/** What one run measured (the --compare child prints it as JSON). */
interface JourneyReport {
  revision: string;
  played: Played;
  calls: CallRecord[];
  reads: Array<{ uri: string; chars: number; quest: string }>;
  instructionsChars: number;
  wallMs: number;
  setupMs: number;
  ledger: LedgerReport;
  viewState: Record<string, number>;
  /** Characters of each answer field (its JSON), by tool and field, over the run. */
  fields: Record<string, number>;
}

interface ServerModules {
  startTestServer: (options?: Record<string, unknown>) => Promise<{ url: string; close(): Promise<void> }>;
  guestToken: (server: { url: string }) => Promise<{ token: string; accountId: string }>;
  theWorld: () => Promise<{ sessions: Map<string, { client: unknown }> }>;
  McpPlayer: { prototype: any };
}

/** The server's pieces, from the checkout at `root` (this one, or --compare's worktree). */
async function serverModules(root: string): Promise<ServerModules> {
  const load = (rel: string) => import(pathToFileURL(path.join(root, rel)).href);
  const [server, worldClient, worldRoom, player] = await Promise.all([
    load("test/helpers/server.ts"),
    load("test/helpers/worldClient.ts"),
    load("test/helpers/worldRoom.ts"),
    load("src/mcp/player.ts"),
  ]);
  return { startTestServer: server.startTestServer, guestToken: worldClient.guestToken, theWorld: worldRoom.theWorld, McpPlayer: player.McpPlayer };
}

/** Play the journey on a test server of the checkout at `root`. */
async function runJourney(root: string, revision: string, log: (line: string) => void): Promise<JourneyReport> {
  const t0 = performance.now();
  const m = await serverModules(root);
  const tap = new EventTap();
  tap.install(m.McpPlayer);
  const server = await m.startTestServer();
  try {
    const who = await m.guestToken(server);
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${who.token}` } },
    });
    const client = new Client({ name: "mcp-journey-bench", version: "1.0.0" });
    await client.connect(transport);
    const session = new CountingSession(client, log);
    const setupMs = performance.now() - t0;
    const started = performance.now();
    const played = await playQuests(session, log);
    const wallMs = performance.now() - started;

    // The MCP session's room client: the one McpPlayer the tap heard, and the room's client for its character.
    const room = await m.theWorld();
    const mine = tap.clients().filter((c) => c instanceof (m.McpPlayer as unknown as new () => object));
    if (mine.length !== 1) throw new Error(`the tap heard ${mine.length} MCP players, not 1`);
    const player = mine[0] as { sight: { self?: { id: string } } };
    const selfId = player.sight.self?.id ?? "";
    if (room.sessions.get(selfId)?.client !== player) throw new Error("the tapped client is not the room's client for the character");
    const ledger = checkLedger(tap.toldTo(player), session.answers, selfId);
    const viewState = tap.stateTo(player);
    const instructionsChars = client.getInstructions()?.length ?? 0;

    await transport.terminateSession().catch(() => {});
    await client.close();
    return {
      revision,
      played,
      calls: session.calls,
      reads: session.reads,
      instructionsChars,
      wallMs,
      setupMs,
      ledger,
      viewState,
      fields: fieldSizes(session),
    };
  } finally {
    tap.uninstall();
    await server.close();
  }
}

/** Characters of each top-level field of the answers (as JSON), by tool: where an answer's size goes. */
function fieldSizes(s: CountingSession): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [tool, body] of s.bodies) for (const [k, v] of Object.entries(body)) out[`${tool}.${k}`] = (out[`${tool}.${k}`] ?? 0) + JSON.stringify(v).length;
  return out;
}

const n = (v: number) => v.toLocaleString("en-US");

/** The calls of each quest (a call before the first quest's own is the first quest's) and the total. */
function byQuest(r: JourneyReport) {
  const first = r.played.completed[0]?.name ?? QUESTS[0];
  const groups = new Map<string, CallRecord[]>();
  for (const c of r.calls) {
    const q = c.quest || first;
    groups.set(q, [...(groups.get(q) ?? []), c]);
  }
  const rows = [...groups].map(([quest, calls]) => ({
    quest,
    done: r.played.completed.some((c) => c.name === quest),
    calls: calls.length,
    text: sum(calls.map((c) => c.textChars)),
    structured: sum(calls.map((c) => c.structuredChars)),
    reads: sum(r.reads.filter((x) => (x.quest || first) === quest).map((x) => x.chars)),
    seconds: (calls[calls.length - 1].end - calls[0].start) / 1000,
  }));
  const total = {
    quest: "total",
    done: rows.length > 0 && rows.every((x) => x.done),
    calls: r.calls.length,
    text: sum(rows.map((x) => x.text)),
    structured: sum(rows.map((x) => x.structured)),
    reads: sum(r.reads.map((x) => x.chars)),
    seconds: r.wallMs / 1000,
  };
  return { rows, total };
}

function print(r: JourneyReport, steps: boolean) {
  const { rows, total } = byQuest(r);
  console.log(`\nbench:mcp-journey — ${QUESTS.join(" and ")} through /mcp, on ${r.revision}\n`);
  console.log(
    table(
      ["quest", "completed", "tool calls", "answer chars (text)", "structuredContent chars", "resource chars", "wall s"],
      [...rows, total].map((x) => [x.quest, x.done ? "yes" : "NO", String(x.calls), n(x.text), n(x.structured), n(x.reads), fmt(x.seconds, 1)]),
    ),
  );
  const callsMet = total.calls <= TARGET_CALLS;
  const charsMet = total.text <= TARGET_CHARS;
  console.log(
    `\ntargets: both quests in at most ${TARGET_CALLS} tool calls: ${total.calls} — ${callsMet ? "met" : "NOT met"}; ` +
      `at most ${n(TARGET_CHARS)} answer characters: ${n(total.text)} — ${charsMet ? "met" : "NOT met"}`,
  );
  console.log(
    "answer characters counted: each answer's text content, what a model is shown (structuredContent is the same JSON object again: " +
      `counted too, the total would be ${n(total.text + total.structured)})`,
  );
  const reads = new Map<string, { count: number; chars: number }>();
  for (const x of r.reads) reads.set(x.uri, { count: (reads.get(x.uri)?.count ?? 0) + 1, chars: (reads.get(x.uri)?.chars ?? 0) + x.chars });
  console.log(
    `resources read beside the calls: ${[...reads].map(([uri, x]) => `${uri} ×${x.count} (${n(x.chars)})`).join(", ")}; ` +
      `given before the first call: the tools' list ${n(r.played.toolsChars)} chars (their outputSchemas ${n(r.played.outputSchemaChars ?? 0)} of it), the instructions ${n(r.instructionsChars)}`,
  );
  const behind = r.played.journalBehind;
  if (behind.length)
    console.log(
      `the journal resource was behind an answer's quest events ${behind.length} times (read right after the answer; caught up after ${behind.map((ms) => fmt(ms, 0)).join(", ")} ms; only the read that caught up is counted)`,
    );
  const tools = new Map<string, { calls: number; chars: number; max: number }>();
  for (const c of r.calls) {
    const t = tools.get(c.tool) ?? { calls: 0, chars: 0, max: 0 };
    tools.set(c.tool, { calls: t.calls + 1, chars: t.chars + c.textChars, max: Math.max(t.max, c.textChars) });
  }
  console.log(
    `\nby tool\n${table(
      ["tool", "calls", "answer chars", "largest"],
      [...tools].sort((x, y) => y[1].chars - x[1].chars).map(([tool, x]) => [tool, String(x.calls), n(x.chars), n(x.max)]),
    )}`,
  );
  const fields = Object.entries(r.fields)
    .sort((x, y) => y[1] - x[1])
    .slice(0, 8)
    .map(([k, v]) => `${k} ${n(v)}`);
  console.log(`the largest answer fields (their JSON, over the run): ${fields.join(", ")}`);
  const errors = r.calls.filter((c) => c.error);
  if (errors.length) console.log(`refused calls: ${errors.map((c) => `#${c.n} ${c.tool} ${c.error}`).join(", ")}`);
  if (steps) console.log(`\nsetup (server, guest, MCP session): ${fmt(r.setupMs / 1000, 1)} s`);

  const l = r.ledger;
  console.log(
    `\nevents told: ${l.told}, in answers: ${l.inAnswers}, missed: ${l.missed.length}, duplicated: ${l.duplicated.length}` +
      (l.untold.length ? `, in answers but never told: ${l.untold.length}` : "") +
      (l.mismatched.length ? `, totals not adding up: ${l.mismatched.length}` : "") +
      (l.reordered ? `, out of order: ${l.reordered}` : "") +
      (l.eventsDropped ? `, dropped (eventsDropped): ${l.eventsDropped}` : "") +
      (l.afterLastAnswer ? ` (${l.afterLastAnswer} told after the last answer)` : ""),
  );
  console.log(
    `  by kind: ${Object.entries(l.byKind)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}; the view's own updates (not events): ${Object.entries(r.viewState)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
  );
  if (l.answersWithoutEvents) console.log(`  answers without an events field: ${l.answersWithoutEvents} of ${r.calls.length}`);
  const left = Object.entries(l.fieldsLeftOut);
  if (left.length) console.log(`  message fields the answers leave out: ${left.map(([k, v]) => `${k} (${v})`).join(", ")}`);
  for (const e of l.missed.slice(0, 10)) console.log(`  missed: ${JSON.stringify(e).slice(0, 300)}`);
  for (const e of [...l.duplicated, ...l.untold, ...l.mismatched].slice(0, 10))
    console.log(`  #${e.call} ${e.tool}: ${e.why}: ${JSON.stringify(e.entry).slice(0, 300)}`);
  if (r.played.failure) console.log(`\nthe journey failed: ${r.played.failure}`);
}

/** The journey on `rev`, in a child process of this file run with `--root` at its worktree. */
async function compareRun(rev: string): Promise<JourneyReport> {
  const c = checkout(rev);
  try {
    const args = ["--import", "tsx", fileURLToPath(import.meta.url), "--root", c.dir, "--json", "true"];
    return await new Promise<JourneyReport>((resolve, reject) => {
      const child = spawn(process.execPath, args, { cwd: c.dir, stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, JOURNEY_LABEL: c.label } });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.on("error", reject);
      child.on("exit", (code) => {
        const line = out.split("\n").find((x) => x.startsWith('{"revision"'));
        if (!line) return reject(new Error(`the journey on ${c.label} exited ${code} without its report:\n${out.slice(-2000)}`));
        resolve(JSON.parse(line));
      });
    });
  } finally {
    c.remove?.();
  }
}

function printComparison(before: JourneyReport, after: JourneyReport) {
  const row = (label: string, r: JourneyReport) => {
    const { total } = byQuest(r);
    return [
      label,
      total.done ? "yes" : "NO",
      String(total.calls),
      n(total.text),
      n(total.reads),
      fmt(total.seconds, 1),
      `${r.ledger.inAnswers}/${r.ledger.told}`,
      String(r.ledger.duplicated.length),
    ];
  };
  console.log(
    `\nbefore and after\n${table(
      ["revision", "both completed", "tool calls", "answer chars (text)", "resource chars", "wall s", "events in answers / told", "duplicated"],
      [
        row(before.revision, before),
        row(after.revision, after),
        ["the issue: a model's journey before the rework (recorded)", "yes", `${ISSUE_BEFORE.calls} useful`, `~${n(ISSUE_BEFORE.chars)}`, "-", "-", "-", "-"],
      ],
    )}`,
  );
}

async function main() {
  const steps = a.steps === "true";
  const log = steps && a.json !== "true" ? (line: string) => console.log(line) : steps ? (line: string) => console.error(line) : () => {};
  if (a.root) {
    const r = await runJourney(path.resolve(a.root), process.env.JOURNEY_LABEL ?? a.root, log);
    if (a.json === "true") console.log(JSON.stringify(r));
    else print(r, steps);
    if (!passed(r)) process.exitCode = 1;
    return;
  }
  let before: JourneyReport | undefined;
  if (a.compare) {
    console.error(`playing the journey on ${a.compare} (a worktree, in a child process)…`);
    before = await compareRun(a.compare);
  }
  const after = await runJourney(ROOT, "this checkout (working tree)", log);
  if (before) {
    print(before, false);
    console.log("\n" + "-".repeat(100));
  }
  print(after, steps);
  if (before) printComparison(before, after);
  else
    console.log(
      `\nbefore the rework (the issue's recorded figures, not measured here): ${ISSUE_BEFORE.calls} useful calls, ~${n(ISSUE_BEFORE.chars)} characters`,
    );
  if (!passed(after)) process.exitCode = 1;
}

/** Both quests completed, and no event missed, duplicated or made up. */
function passed(r: JourneyReport): boolean {
  const l = r.ledger;
  return r.played.completed.length >= QUESTS.length && !r.played.failure && l.missed.length === 0 && l.duplicated.length === 0 && l.untold.length === 0;
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
