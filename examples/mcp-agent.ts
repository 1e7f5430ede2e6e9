/**
 * A scripted MCP client of the game server (no language model): it connects to /mcp with a token,
 * starts the first quest, gathers logs, buys a knife, makes arrow shafts from the logs and sells them,
 * all through the server's MCP tools, as a model would call them.
 *
 *   npm run example:mcp -- http://localhost:5555 [token]    (no token: a guest account is made)
 *
 * `runJourney` is importable (test/mcp/journey.test.ts runs it against a test server).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/** What the journey did, step by step. */
export interface Journey {
  character: string;
  questStarted: string | null;
  logs: number;
  shafts: number;
  coinsFromSale: number;
  steps: string[];
}

type Answer = { isError: boolean; body: any; text: string };

/** Call a tool; a refusal throws with its code and message (the script has no plan B). */
async function call(client: Client, name: string, args: Record<string, unknown> = {}, log?: (line: string) => void): Promise<any> {
  const r = (await client.callTool({ name, arguments: args }, undefined, {
    // Long actions report progress; each report restarts the request's timeout.
    onprogress: (p) => log?.(`  … ${name}: ${p.message ?? p.progress}`),
    resetTimeoutOnProgress: true,
  })) as { isError?: boolean; structuredContent?: unknown; content: Array<{ text?: string }> };
  const a: Answer = { isError: r.isError === true, body: r.structuredContent, text: r.content.map((c) => c.text ?? "").join("\n") };
  if (a.isError) throw new Error(`${name} refused: ${a.text}`);
  return a.body;
}

const slotOf = (seen: any, itemId: string) => seen.pack.find((s: { itemId: string }) => s.itemId === itemId)?.slot as number | undefined;
const countOf = (seen: any, itemId: string) =>
  seen.pack.filter((s: { itemId: string }) => s.itemId === itemId).reduce((n: number, s: { quantity: number }) => n + s.quantity, 0);

/** Play the journey on the server at `baseUrl` with `token`; `log` hears each step. */
export async function runJourney(baseUrl: string, token: string, log: (line: string) => void = () => {}): Promise<Journey> {
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", baseUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: "mcp-agent-example", version: "1.0.0" });
  await client.connect(transport);
  const steps: string[] = [];
  const step = (line: string) => {
    steps.push(line);
    log(line);
  };
  try {
    // Where things are: the map resource lists the townsfolk with their ids.
    const map = JSON.parse(((await client.readResource({ uri: "arena://world/map" })).contents[0] as { text: string }).text);
    const journal = await call(client, "quest_journal");
    const first = journal.quests.find((q: { status: string }) => q.status === "not_started");
    let seen = await call(client, "observe");
    step(`I am ${seen.you.name} at ${seen.you.x},${seen.you.z}`);

    // 1. The first quest: talk to its start npc and take the first answer until it starts.
    let questStarted: string | null = null;
    if (first?.startNpc) {
      const npc = map.townsfolk.find((t: { npcId: string }) => t.npcId === first.startNpc);
      let r = await call(client, "interact", { action: "talk", targetId: npc.id }, log);
      step(`${npc.name}: ${r.dialogue?.text}`);
      for (let i = 0; i < 4 && r.dialogue?.responses?.length && !questStarted; i++) {
        r = await call(client, "dialogue_respond", { index: 0 });
        questStarted = r.events.find((e: { kind: string }) => e.kind === "quest:started")?.name ?? null;
        if (r.dialogue) step(`${npc.name}: ${r.dialogue.text}`);
      }
      if (questStarted) step(`Quest started: ${questStarted}`);
      if (r.dialogue) await call(client, "close", { what: "dialogue" });
    }

    // 2. Gather: chop the nearest tree until there are two logs (the starter kit has a hatchet).
    seen = await call(client, "observe");
    while (countOf(seen, "logs") < 2) {
      let tree = seen.near.resources.find((r: { skill: string; resourceId: string }) => r.skill === "woodcutting" && r.resourceId === "tree_normal");
      if (!tree) {
        const spot = map.resourceSpots.find((s: { resourceId: string }) => s.resourceId === "tree_normal").tiles[0];
        await call(client, "move_to", { x: spot.x + 1, z: spot.z, run: true }, log);
        seen = await call(client, "observe");
        tree = seen.near.resources.find((r: { resourceId: string }) => r.resourceId === "tree_normal");
      }
      const r = await call(client, "interact", { action: "gather", targetId: tree.id, maxTicks: 90 }, log);
      step(`Chopped: ${JSON.stringify(r.gained)}`);
      seen = await call(client, "observe");
    }
    const logs = countOf(seen, "logs");

    // 3. A knife from the general store, then arrow shafts from one log (fletching needs no station).
    const keeper = map.townsfolk.find((t: { storeId?: string }) => t.storeId === "general_store");
    await call(client, "interact", { action: "store", targetId: keeper.id, maxTicks: 90 }, log);
    const bought = await call(client, "store_buy", { itemId: "knife", quantity: 1 });
    step(`Bought a knife: ${JSON.stringify(bought.gained)}`);
    await call(client, "close", { what: "store" });
    const made = await call(client, "make", { kind: "fletching", recipeId: "arrow_shaft", count: 1 }, log);
    step(`Made: ${JSON.stringify(made.gained)}`);
    seen = await call(client, "observe");
    const shafts = countOf(seen, "arrow_shaft");

    // 4. Sell what was made, and the logs left, back to the store.
    await call(client, "interact", { action: "store", targetId: keeper.id, maxTicks: 90 }, log);
    let coinsFromSale = 0;
    for (const itemId of ["arrow_shaft", "logs"]) {
      const quantity = countOf(seen, itemId);
      if (!quantity) continue;
      const sold = await call(client, "store_sell", { slot: slotOf(seen, itemId), quantity }).catch((err: Error) => {
        // The store pays nothing for some things (WORTHLESS_SALE): those are kept.
        if (!/WORTHLESS_SALE/.test(err.message)) throw err;
        step(`Kept ${quantity} ${itemId}: the store would pay nothing for them`);
        return undefined;
      });
      if (!sold) continue;
      coinsFromSale += sold.gained.coins ?? 0;
      step(`Sold ${quantity} ${itemId} for ${sold.gained.coins ?? 0} coins`);
      seen = await call(client, "observe");
    }
    await call(client, "close", { what: "store" });
    return { character: seen.you.name, questStarted, logs, shafts, coinsFromSale, steps };
  } finally {
    await transport.terminateSession().catch(() => {});
    await client.close();
  }
}

/** Run from the command line: the server's URL and a token (none: a new guest). */
async function main() {
  const baseUrl = process.argv[2] ?? "http://localhost:5555";
  let token = process.argv[3];
  if (!token) {
    const res = await fetch(new URL("/api/auth/guest", baseUrl), { method: "POST" });
    if (res.status !== 201) throw new Error(`no guest account: ${res.status} ${await res.text()}`);
    token = ((await res.json()) as { token: string }).token;
  }
  const journey = await runJourney(baseUrl, token, (line) => console.log(line));
  console.log(JSON.stringify({ ...journey, steps: undefined }, null, 2));
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
