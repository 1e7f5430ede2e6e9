import { performance } from "node:perf_hooks";
import { Client, type Room } from "@colyseus/sdk";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import WebSocket from "ws";

/** What a player of bench:upgrade does while the cluster is upgraded under it. */
export type UpgradeRole = "walker" | "fighter" | "trader";

/** One move of a player's world to another process, as the player lived it. */
export interface MoveSeen {
  /** From `world:moving` to the first world frame on the new host (ms). */
  stallMs: number;
  /** The pack of the last `player:sync` before the move equals the first one after it (item by item). */
  kept: boolean;
  /** What differed, when not kept. */
  difference?: string;
}

type Sync = { id: string; position: { x: number; z: number }; inventory: Array<{ itemId: string; quantity: number } | null> };

/** The pack as item → quantity: what a move must keep (a walk under way may end a tile on, so the place is not compared). */
function keptOf(sync: Sync): string {
  const bag = new Map<string, number>();
  for (const s of sync.inventory) if (s) bag.set(s.itemId, (bag.get(s.itemId) ?? 0) + s.quantity);
  return [...bag]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}x${v}`)
    .join(" ");
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How long a player waits before knocking again while its world is not running yet. */
const RETRY_MS = 50;

/**
 * Shared by both kinds: the moves seen, and how a move is judged (the kept state, the stall).
 * `fail` collects what went wrong (a player that never came back, a refusal).
 */
abstract class UpgradePlayer {
  readonly moves: MoveSeen[] = [];
  readonly problems: string[] = [];
  /** Trades this player saw completed (both sides count theirs). */
  tradesDone = 0;
  protected lastSync: Sync | undefined;
  protected moving: { at: number; before: string; after?: string } | undefined;
  protected stopped = false;
  id = "";

  constructor(
    readonly role: UpgradeRole,
    protected readonly token: string,
    protected readonly world: number,
    protected readonly random: () => number,
  ) {}

  /** The first player:sync after a move came: what it holds is compared with the last one before. */
  protected synced(sync: Sync) {
    this.lastSync = sync;
    if (this.moving && this.moving.after === undefined) this.moving.after = keptOf(sync);
  }

  /** The first world frame after a move: the stall ends. */
  protected backInWorld() {
    const m = this.moving;
    if (!m || m.after === undefined) return;
    this.moving = undefined;
    const kept = m.after === m.before;
    this.moves.push({ stallMs: performance.now() - m.at, kept, ...(kept ? {} : { difference: `${m.before} → ${m.after}` }) });
  }

  /** Told to move and not back in the world yet. */
  get away(): boolean {
    return this.moving !== undefined;
  }

  /** `world:moving` messages received. */
  movingSeen = 0;

  protected movingStarts() {
    this.movingSeen++;
    if (this.moving) this.problems.push("told to move again before it was back from the last move");
    this.moving = { at: performance.now(), before: this.lastSync ? keptOf(this.lastSync) : "" };
  }

  /** A tile within 4 of where it stands. */
  protected nearby() {
    const at = this.lastSync?.position ?? { x: 0, z: 0 };
    return { x: Math.round(at.x) + Math.floor(this.random() * 9) - 4, z: Math.round(at.z) + Math.floor(this.random() * 9) - 4 };
  }

  abstract stop(): Promise<void>;
}

/**
 * A /ws player: walks, fights the npcs it sees, or trades a coin back and forth with its partner.
 * Told `world:moving`, it resumes with the token it was given on one of the `hosts` (following a
 * redirect, knocking again while the world is not running yet), as docs/PROTOCOL.md §8 says.
 */
export class WsUpgradePlayer extends UpgradePlayer {
  private socket: WebSocket | undefined;
  private timer: NodeJS.Timeout | undefined;
  private npcs: string[] = [];
  /** The trader that asks (the other answers). */
  partner: WsUpgradePlayer | undefined;
  leads = false;
  private trade: string | undefined;

  async join(port: number): Promise<void> {
    await this.connect(`ws://127.0.0.1:${port}/ws?updates=changes&world=${this.world}&token=${encodeURIComponent(this.token)}`, undefined);
    this.timer = setInterval(() => this.act(), 1800 + Math.floor(this.random() * 600));
  }

  /** Open a socket (following redirects) until authenticated; `resumeToken`: resume a moved session. */
  private async connect(url: string, resumeToken: string | undefined): Promise<void> {
    const deadline = performance.now() + 60_000;
    for (;;) {
      if (performance.now() > deadline) throw new Error(`${this.role} ${this.id}: not back within 60 s`);
      const answer = await this.open(url, resumeToken);
      if (answer === "in") return;
      if (answer.startsWith("ws")) url = answer;
      else await pause(RETRY_MS);
    }
  }

  /** One socket: "in", a redirect's URL, or "again" (the world not running yet, the socket closed). */
  private open(url: string, resumeToken: string | undefined): Promise<string> {
    return new Promise((resolve) => {
      const socket = new WebSocket(url);
      let settled = false;
      const settle = (v: string) => {
        if (!settled) {
          settled = true;
          resolve(v);
        }
      };
      socket.on("open", () => {
        if (resumeToken) socket.send(JSON.stringify({ type: "resume", data: { resumeToken }, id: "resume" }));
      });
      socket.on("message", (raw) => {
        const f = JSON.parse(String(raw)) as { type: string; data: any; id?: string };
        if (f.type === "world:redirect") {
          const to = new URL(f.data.url);
          return settle(resumeToken ? `${to.origin.replace("http", "ws")}${to.pathname}${to.search}` : `${f.data.url}&token=${encodeURIComponent(this.token)}`);
        }
        if (f.type === "authenticated") {
          this.id = f.data.playerId;
          this.socket = socket;
          settle("in");
          return;
        }
        if (f.type === "error" && f.id === "resume") {
          // Not running yet: the socket stays open and the token good; ask again in a moment, on the same socket.
          if (f.data.code === "WORLD_UNAVAILABLE")
            return void setTimeout(() => socket.send(JSON.stringify({ type: "resume", data: { resumeToken }, id: "resume" })), RETRY_MS);
          this.problems.push(`resume refused: ${f.data.code} ${f.data.message}`);
          socket.terminate();
          return settle("again");
        }
        if (this.socket === socket) this.frame(f.type, f.data);
      });
      socket.on("close", (code) => {
        if (this.socket === socket) return this.closed(code);
        settle("again");
      });
      socket.on("error", () => settle("again"));
    });
  }

  private frame(type: string, data: any) {
    if (type === "player:sync") return this.synced(data);
    if (type === "world:update") {
      this.backInWorld();
      for (const n of data.npcs ?? []) if (n.defId !== undefined && !this.npcs.includes(n.id)) this.npcs.push(n.id);
      for (const id of data.removed ?? []) this.npcs = this.npcs.filter((n) => n !== id);
      return;
    }
    if (type === "world:moving") {
      this.movingStarts();
      this.resumeWith = { token: data.resumeToken, hosts: data.next ? [data.next] : data.hosts };
      return;
    }
    if (this.role !== "trader") return;
    if (type === "tradeIncoming") this.send("tradeRequestRespond", { tradeId: data.tradeId, accept: true });
    else if (type === "tradeStarted") {
      this.trade = data.tradeId;
      if (this.leads) {
        const slot = (this.lastSync?.inventory ?? []).findIndex((s) => s?.itemId === "coins");
        if (slot >= 0) this.send("tradeAddItem", { tradeId: data.tradeId, inventorySlot: slot, quantity: 1 });
      }
    } else if (type === "tradeUpdated" && data.tradeId === this.trade) {
      // The follower accepts once the coin is offered; the leader once the follower has.
      if ((!this.leads && data.theirOffer.items.length > 0 && !data.myOffer.accepted) || (this.leads && data.theirOffer.accepted && !data.myOffer.accepted))
        this.send("tradeAccept", { tradeId: data.tradeId });
    } else if (type === "tradeConfirmScreen" && data.tradeId === this.trade) this.send("tradeAccept", { tradeId: data.tradeId });
    else if (type === "tradeCompleted" || type === "tradeCancelled") {
      if (type === "tradeCompleted") this.tradesDone++;
      this.trade = undefined;
    }
  }

  private resumeWith: { token: string; hosts: string[] } | undefined;

  private closed(code: number) {
    this.socket = undefined;
    if (this.stopped) return;
    const moved = this.resumeWith;
    this.resumeWith = undefined;
    if (code !== 4103 || !moved) {
      this.problems.push(`closed with ${code} outside a move`);
      return;
    }
    const host = moved.hosts[Math.floor(this.random() * moved.hosts.length)];
    if (!host) return void this.problems.push("world:moving named no host");
    this.connect(`ws://${host}/ws?updates=changes`, moved.token).catch((err) => this.problems.push((err as Error).message));
  }

  private send(type: string, data: unknown) {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type, data }));
  }

  private act() {
    if (!this.socket) return;
    if (this.role === "walker") this.send("player:move", this.nearby());
    else if (this.role === "fighter") {
      const target = this.npcs[Math.floor(this.random() * this.npcs.length)];
      if (target) this.send("player:action", { action: "attack", targetId: target });
      else this.send("player:move", this.nearby());
    } else if (this.leads && !this.trade && this.partner?.id) this.send("tradeRequest", { targetPlayerId: this.partner.id });
  }

  async stop() {
    this.stopped = true;
    clearInterval(this.timer);
    const s = this.socket;
    if (s && s.readyState === WebSocket.OPEN) {
      await new Promise<void>((resolve) => {
        s.once("close", () => resolve());
        s.close(1000);
      });
    }
  }
}

/**
 * An SDK player that walks. Told `world:moving` (then closed with 4103), it joins its world again
 * with the same token and character through one of the `hosts`, knocking again while the world is
 * not running yet, as the web client does.
 */
export class SdkUpgradePlayer extends UpgradePlayer {
  private room: Room<any> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private hosts: string[] = [];
  private fallback: string[] = [];

  async join(url: string, characterId?: string): Promise<void> {
    const sdk = new Client(url);
    sdk.auth.token = this.token;
    const room = await sdk.joinOrCreate("world", { world: this.world, ...(characterId ? { characterId } : {}) });
    room.onMessage("*", () => {});
    room.onMessage("player:sync", (data: Sync) => {
      this.id = data.id;
      this.synced(data);
      this.backInWorld();
    });
    room.onMessage("world:moving", (data: { hosts: string[]; next: string | null }) => {
      this.movingStarts();
      // The process meant to run the world next first; the others should it not.
      this.hosts = data.next ? [data.next] : data.hosts;
      this.fallback = data.hosts;
    });
    room.onLeave((code: number) => void this.left(code));
    this.room = room;
    this.timer ??= setInterval(() => this.room?.send("player:move", this.nearby()), 1800 + Math.floor(this.random() * 600));
  }

  private async left(code: number) {
    this.room = undefined;
    if (this.stopped) return;
    if (code !== 4103) return void this.problems.push(`left with ${code} outside a move`);
    const deadline = performance.now() + 60_000;
    while (!this.stopped) {
      const host = this.hosts[Math.floor(this.random() * this.hosts.length)];
      try {
        return await this.join(`http://${host}`, this.id);
      } catch (err) {
        if (performance.now() > deadline) return void this.problems.push(`not back within 60 s: ${(err as Error).message}`);
        if (performance.now() - (this.moving?.at ?? 0) > 5_000) this.hosts = this.fallback;
        await pause(RETRY_MS);
      }
    }
  }

  async stop() {
    this.stopped = true;
    clearInterval(this.timer);
    await this.room?.leave().catch(() => {});
  }
}

/**
 * An MCP client (the SDK's own Client over HTTP) that walks, calling `move_to` a tile nearby again
 * and again, through the cluster's one address (test/helpers/front.ts, as nginx in docs/DEPLOYMENT.md).
 * It does nothing about a move but call again: its next call, to the same address in the same
 * session, is taken up by the world's new host (docs/MCP.md "In a cluster"). A move's stall: from
 * the start of the first call that did not answer as usual (WORLD_MOVED, a failed request; then it
 * calls `observe`, answered at once, until one goes through) or of the call whose answer tells
 * `session:moved`, to the end of that answer: from when the client learned of the move (the
 * WORLD_MOVED answer, the failure; the held call's start when it was answered on the new host),
 * and, in `heldMs`, from the start of the call the move held up. The pack is compared from the
 * last answer before to the first after.
 */
export class McpUpgradePlayer {
  readonly role = "walker";
  readonly moves: MoveSeen[] = [];
  readonly problems: string[] = [];
  readonly tradesDone = 0;
  movingSeen = 0;
  id = "";
  private client: McpClient | undefined;
  private transport: StreamableHTTPClientTransport | undefined;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private at = { x: 0, z: 0 };
  private pack = "";
  /** The move under way: when the call it held up started, when the client learned of it, and the pack before it. */
  private moving: { at: number; told: number; before: string } | undefined;
  /** For each move, from the start of the call it held up (which may have begun well before the move) to the end of the first answer after it. */
  readonly heldMs: number[] = [];

  constructor(
    private readonly token: string,
    private readonly world: number,
    private readonly random: () => number,
  ) {}

  get away(): boolean {
    return this.moving !== undefined;
  }

  async join(url: string): Promise<void> {
    const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp?world=${this.world}`), {
      requestInit: { headers: { authorization: `Bearer ${this.token}` } },
    });
    this.transport = transport;
    this.client = new McpClient({ name: "bench-upgrade", version: "1.0.0" });
    await this.client.connect(transport);
    const seen = await this.call("observe", {});
    if (!seen.ok) throw new Error(`observe: ${seen.text}`);
    this.loop = this.play();
  }

  private async call(name: string, args: Record<string, unknown>) {
    const r = (await this.client!.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: any; content: Array<{ text?: string }> };
    const body = r.structuredContent;
    if (body?.you) {
      this.id = body.you.id;
      this.at = { x: body.you.x, z: body.you.z };
    }
    if (Array.isArray(body?.pack)) this.pack = keptOf({ id: this.id, position: this.at, inventory: body.pack });
    const moved = ((body?.events ?? []) as Array<{ kind: string }>).some((e) => e.kind === "session:moved");
    return { ok: r.isError !== true, moved, text: r.content.map((c) => c.text ?? "").join("") };
  }

  private async play() {
    while (!this.stopped) {
      const started = performance.now();
      const to = { x: this.at.x + Math.floor(this.random() * 9) - 4, z: this.at.z + Math.floor(this.random() * 9) - 4 };
      try {
        // While a move holds it up, the next call is an observe (answered at once): the stall is not a walk's length.
        const r = this.moving ? await this.call("observe", {}) : await this.call("move_to", { ...to, maxTicks: 4 });
        if (r.moved || (!r.ok && /^WORLD_MOVED/.test(r.text))) this.moving ??= { at: started, told: r.moved ? started : performance.now(), before: this.pack };
        if (r.moved) {
          // The pack as the new host has it.
          const seen = r.ok && this.moving && this.pack ? r : await this.call("observe", {});
          const m = this.moving!;
          this.moving = undefined;
          this.movingSeen++;
          const kept = this.pack === m.before;
          this.moves.push({ stallMs: performance.now() - m.told, kept, ...(kept ? {} : { difference: `${m.before} → ${this.pack}` }) });
          this.heldMs.push(performance.now() - m.at);
          if (!seen.ok) this.problems.push(`observe after the move: ${seen.text}`);
          continue;
        }
        if (r.ok) {
          // Answered in the session as it was: what failed before (a stopping process's 503) was no move.
          this.moving = undefined;
        } else if (/^(SESSION_ENDED|BANNED|RATE_LIMITED)/.test(r.text)) this.problems.push(r.text.slice(0, 120));
      } catch (err) {
        if (this.stopped) return;
        // A session the cluster no longer knows will not come back.
        if (/Session not found|404/.test((err as Error).message)) return void this.problems.push((err as Error).message.slice(0, 120));
        // The request failed (its process went away under it), or the world is on its way (503): the move is under way.
        this.moving ??= { at: started, told: performance.now(), before: this.pack };
        await pause(RETRY_MS);
        continue;
      }
      await pause(200 + Math.floor(this.random() * 200));
    }
  }

  async stop() {
    this.stopped = true;
    await this.loop?.catch(() => {});
    await this.transport?.terminateSession().catch(() => {});
    await this.client?.close().catch(() => {});
  }
}
