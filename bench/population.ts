import { Protocol } from "@colyseus/core";
import type { WorldRoom } from "../rooms/WorldRoom.js";
import type { TestServer } from "../test/helpers/server.js";
import { joinBenchClient, type BenchClient } from "./benchClient.js";
import { decide, DECIDE_MAX_TICKS, nextDecisionTick, randomWorldTile, seededRandom, type Command } from "./bots.js";
import type { RoomProbe } from "./probe.js";
import type { SdkPlayers } from "./sdkPlayers.js";

/** One simulated player: an in-memory client and its behaviour. */
export interface Bot {
  client: BenchClient;
  playerId: string;
  rnd: () => number;
  nextTick: number;
  /** Still running to its first destination after joining. */
  scattering: boolean;
  /** Index of the real SDK player this bot mirrors command for command (a twin walks only; the
   *  SDK player is sent each command and the room's copy of it is passed on to the twin). */
  twinOf?: number;
}

/** What the real SDK players' sockets were handed server-side (counted on the room's own clients). */
export interface ServerSideCounter {
  bytes: number;
  frames: number;
  /** Bytes of state frames (the first state and patches). */
  stateBytes: number;
  /** Time spent in the WebSocket client's raw() (ws framing and socket write). */
  rawMs: number;
  /** Ticks after which this player and its in-memory twin stood on different tiles. */
  ticksApart: number;
}

/**
 * The simulated population of one WorldRoom: joins bots with bounded concurrency through the real
 * matchmaker, and after every tick lets each bot whose decision is due send its next command.
 */
export class Population {
  readonly bots: Bot[] = [];
  /** Server-side counters of the real SDK players, by SDK index. */
  readonly sdkServer = new Map<number, ServerSideCounter>();
  private readonly sdkPlayerIds = new Map<number, string>();
  /** When each bot's join completed (performance.now()), in order. */
  readonly joinedAt: number[] = [];
  commandsSent = 0;
  /** Wall time spent deciding and handling commands (the room handles a message synchronously). */
  commandMs = 0;
  joinFailures = 0;
  private serial = 0;

  constructor(
    private readonly server: TestServer,
    private readonly room: WorldRoom,
    private readonly probe: RoomProbe,
    /** `teleport`: a new bot is put on a random tile at once (the spread map: too far to walk). */
    private readonly options: { seed: number; scatter: boolean; concurrency: number; teleport?: boolean },
    private readonly sdk?: SdkPlayers,
  ) {
    probe.onTick((tick) => this.step(tick));
  }

  get size() {
    return this.bots.length;
  }

  private async guestToken(): Promise<string> {
    const res = await fetch(`${this.server.url}/api/auth/guest`, { method: "POST" });
    if (res.status !== 201) throw new Error(`guest: ${res.status}`);
    return ((await res.json()) as { token: string }).token;
  }

  /** Join one bot; names are 6 characters so every player's state encodes to the same size. */
  async joinBot(prefix = "B", twinOf?: number): Promise<Bot> {
    const n = ++this.serial;
    const name = `${prefix}${String(n).padStart(5, "0")}`;
    const token = await this.guestToken();
    const { client } = await joinBenchClient(token, { name });
    const playerId = client.userData?.playerId as string;
    if (!playerId) throw new Error("joined without a player");
    const bot: Bot = { client, playerId, rnd: seededRandom(this.options.seed * 100_003 + n), nextTick: 0, scattering: false, twinOf };
    this.bots.push(bot);
    this.joinedAt.push(performance.now());
    if (twinOf === undefined) this.start(bot);
    return bot;
  }

  /** Begin a bot's life in the world: spread out from the spawn, or start deciding at once. */
  start(bot: Bot) {
    const tick = this.probe.tick;
    if (this.options.scatter) {
      const to = randomWorldTile(this.room.world, bot.rnd);
      // A twin walks, as the real SDK player it mirrors does (it is sent the same commands).
      if (to && this.options.teleport && bot.twinOf === undefined) {
        const p = this.room.world.players.get(bot.playerId);
        if (p) {
          p.tile = { ...to };
          p.path = [];
          this.room.world.place("player", p.id, p.tile);
          this.room.world.touchPlayer(p, true);
        }
      } else if (to) {
        bot.scattering = true;
        this.issue(bot, { type: "player:move", payload: { x: to.x, z: to.z, run: true } });
        return;
      }
    }
    bot.nextTick = tick + 1 + Math.floor(bot.rnd() * DECIDE_MAX_TICKS);
  }

  /** Grow the population to `target` bots, `concurrency` joins at a time. */
  async growTo(target: number, deadline: number) {
    const todo = Math.max(0, target - this.bots.length);
    let started = 0;
    const worker = async () => {
      while (started < todo && performance.now() < deadline) {
        started++;
        try {
          await this.joinBot();
        } catch (err) {
          this.joinFailures++;
          if (this.joinFailures <= 3) console.error(`bench: a join failed: ${(err as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: this.options.concurrency }, worker));
  }

  /**
   * Count what the room hands a real SDK player's WebSocket client (and how long raw() takes), and
   * pass every room message that player sends on to its in-memory twin the moment the room has
   * handled it, so both commands always land in the same tick.
   */
  tapSdkClient(sdkIdx: number, sessionId: string, playerId: string, twin: Bot) {
    const client = this.room.clients.get(sessionId) as any;
    if (!client) throw new Error(`no room client for SDK session ${sessionId}`);
    const counter: ServerSideCounter = { bytes: 0, frames: 0, stateBytes: 0, rawMs: 0, ticksApart: 0 };
    this.sdkPlayerIds.set(sdkIdx, playerId);
    const raw = client.raw.bind(client);
    client.raw = (data: Uint8Array, options?: unknown, cb?: unknown) => {
      const t = performance.now();
      raw(data, options, cb);
      counter.rawMs += performance.now() - t;
      counter.bytes += data.byteLength;
      counter.frames++;
      if (data[0] === Protocol.ROOM_STATE_PATCH || data[0] === Protocol.ROOM_STATE) counter.stateBytes += data.byteLength;
    };
    client.ref.on("message", (frame: Buffer) => {
      if (frame[0] === Protocol.ROOM_DATA) twin.client.receive(Buffer.from(frame));
    });
    this.sdkServer.set(sdkIdx, counter);
  }

  get scattering(): number {
    let n = 0;
    for (const b of this.bots) if (b.scattering) n++;
    return n;
  }

  /** Send a command; a twin's goes to its SDK player, and reaches the twin through tapSdkClient. */
  private issue(bot: Bot, cmd: Command) {
    this.commandsSent++;
    if (bot.twinOf !== undefined && this.sdk) this.sdk.send(bot.twinOf, cmd.type, cmd.payload);
    else bot.client.sendToRoom(cmd.type, cmd.payload);
  }

  private compareTwin(bot: Bot, tile: { x: number; z: number }) {
    const counter = this.sdkServer.get(bot.twinOf!);
    const other = this.room.world.players.get(this.sdkPlayerIds.get(bot.twinOf!) ?? "");
    if (counter && other && (other.tile.x !== tile.x || other.tile.z !== tile.z)) counter.ticksApart++;
  }

  private step(tick: number) {
    const t0 = performance.now();
    const world = this.room.world;
    for (const bot of this.bots) {
      if (bot.client.closed) continue;
      const p = world.players.get(bot.playerId);
      if (!p) continue;
      if (bot.twinOf !== undefined) this.compareTwin(bot, p.tile);
      if (bot.scattering) {
        if (p.path.length > 0) continue;
        bot.scattering = false;
        bot.nextTick = tick + 1 + Math.floor(bot.rnd() * DECIDE_MAX_TICKS);
        continue;
      }
      if (tick < bot.nextTick) continue;
      bot.nextTick = nextDecisionTick(bot.rnd, tick);
      const cmd = decide(world, p, bot.rnd, bot.twinOf !== undefined);
      if (cmd) this.issue(bot, cmd);
    }
    this.commandMs += performance.now() - t0;
  }
}
