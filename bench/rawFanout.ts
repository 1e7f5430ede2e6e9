import { performance } from "node:perf_hooks";
import WebSocket from "ws";
import { collectGarbage } from "./heap.js";
import { openSinkSockets } from "./sinkSockets.js";
import { mainThreadCpuSince, mainThreadCpuUs } from "./threadCpu.js";

/**
 * The socket's own cost, as the baseline of bench:ws: what the server process spends to write the
 * frames /ws wrote (and, for the exchange baseline, to read the frames /ws read), with nothing but
 * the `ws` package and JSON.
 *
 * `FrameTap` records, while the /ws phase's window runs, every text frame this process writes to
 * a `ws` socket and every frame such a socket reads (in that phase only /ws clients are
 * connected): how many, their bytes, and a sample of each. `rawFanout` then opens as many plain
 * loopback sockets (the other side in a child process, bench/wsSink.ts, as the load clients are)
 * and for the same number of ticks writes each socket the same number of frames per tick,
 * re-serialising sampled messages with JSON.stringify as /ws does; given `inbound`, the child also
 * sends the sampled incoming frames at /ws's rate, and the server parses each (JSON.parse). It
 * returns the server's CPU time per frame written.
 */
export class FrameTap {
  frames = 0;
  bytes = 0;
  /** The sampled frames as written (parsed only when the baseline runs: the tap costs /ws's window little). */
  readonly sample: string[] = [];
  /** Frames read from the clients, and a sample of them. */
  inFrames = 0;
  readonly inSample: string[] = [];
  private original?: { send: typeof WebSocket.prototype.send; emit: typeof WebSocket.prototype.emit };

  constructor(private readonly sampleSize = 2000) {}

  start() {
    const original = { send: WebSocket.prototype.send, emit: WebSocket.prototype.emit };
    this.original = original;
    const tap = this;
    WebSocket.prototype.send = function (this: WebSocket, data: any, ...rest: any[]) {
      if (typeof data === "string") {
        tap.frames++;
        tap.bytes += Buffer.byteLength(data);
        keep(tap.sample, tap.frames, data, tap.sampleSize);
      }
      return (original.send as any).call(this, data, ...rest);
    } as typeof WebSocket.prototype.send;
    // Each frame read reaches its listeners as a "message" event (ws's receiver emits it on the socket).
    WebSocket.prototype.emit = function (this: WebSocket, event: string | symbol, ...args: any[]) {
      if (event === "message" && args[1] === false) {
        tap.inFrames++;
        keep(tap.inSample, tap.inFrames, args[0] as Buffer, tap.sampleSize);
      }
      return original.emit.call(this, event, ...args);
    } as typeof WebSocket.prototype.emit;
  }

  stop() {
    if (this.original) Object.assign(WebSocket.prototype, this.original);
    this.original = undefined;
  }
}

/** Reservoir sampling: every frame of the window is as likely to be kept (texts copied out of a read buffer only when kept). */
function keep(sample: string[], seen: number, frame: string | Buffer, size: number) {
  if (sample.length < size) sample.push(String(frame));
  else {
    const k = Math.floor(Math.random() * seen);
    if (k < size) sample[k] = String(frame);
  }
}

export interface RawFanoutResult {
  sockets: number;
  ticks: number;
  frames: number;
  bytes: number;
  /** Server CPU (user + system) per frame written, in microseconds. */
  cpuUsPerFrame: number;
  /** The main thread's share of it (undefined where threads cannot be read apart: bench/threadCpu.ts). */
  mainThreadUsPerFrame?: number;
  /** Bytes the reading side received of the measured frames (a check that the frames arrived). */
  receivedBytes: number;
  /** Frames the server read and parsed over the window (exchange baseline; 0 for the fan-out alone). */
  inboundFrames: number;
}

/** Ticks of writing before the measured ones. */
const WARMUP_TICKS = 3;

/** Frames for the child to send back: the sampled texts, each socket sending `perSocketPerSec` a second. */
export interface Inbound {
  texts: string[];
  perSocketPerSec: number;
}

/**
 * Write `framesPerTick` of `texts` (the frames sampled; round robin, each parsed before the first tick
 * and serialised again as it is sent) to each of `sockets` loopback sockets, every `tickMs`, for
 * `ticks` ticks; with `inbound`, read and parse what the other side sends meanwhile.
 */
export async function rawFanout(
  sockets: number,
  texts: string[],
  framesPerTick: number,
  ticks: number,
  tickMs: number,
  inbound?: Inbound,
): Promise<RawFanoutResult> {
  if (texts.length === 0) throw new Error("no messages to send");
  const messages: unknown[] = texts.map((text) => JSON.parse(text));
  const sink = await openSinkSockets(sockets);
  const conns = sink.conns;
  let read = 0;
  for (const ws of conns)
    ws.on("message", (data: Buffer) => {
      JSON.parse(data.toString("utf8"));
      read++;
    });
  try {
    // The other side's sending starts with the unmeasured ticks below, so the window sees it steady.
    if (inbound && inbound.texts.length) await sink.startSending(inbound.texts, inbound.perSocketPerSec);
    const whole = Math.floor(framesPerTick);
    const fraction = framesPerTick - whole;
    let next = 0;
    let frames = 0;
    let bytes = 0;
    let carry = 0;
    let read0 = read;
    let cpu0 = process.cpuUsage();
    let main0 = mainThreadCpuUs();
    let warmBytes = 0;
    // The first WARMUP_TICKS are not measured (what the process had left to do when the baseline started falls in them).
    collectGarbage();
    for (let t = -WARMUP_TICKS; t < ticks; t++) {
      if (t === 0) {
        read0 = read;
        cpu0 = process.cpuUsage();
        main0 = mainThreadCpuUs();
        warmBytes = bytes;
        frames = bytes = 0;
      }
      const startedAt = performance.now();
      carry += fraction;
      const extra = carry >= 1 ? 1 : 0;
      carry -= extra;
      for (const ws of conns) {
        for (let f = 0; f < whole + extra; f++) {
          const text = JSON.stringify(messages[next++ % messages.length]);
          ws.send(text);
          frames++;
          bytes += text.length;
        }
      }
      const spent = performance.now() - startedAt;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, tickMs - spent)));
    }
    const cpu = process.cpuUsage(cpu0);
    const mainUs = mainThreadCpuSince(main0);
    const inboundFrames = read - read0;
    // (What the reading side received of the measured ticks' frames.)
    const receivedBytes = (await sink.receivedBytes()) - warmBytes;
    return {
      sockets: conns.length,
      ticks,
      frames,
      bytes,
      cpuUsPerFrame: frames ? (cpu.user + cpu.system) / frames : 0,
      mainThreadUsPerFrame: mainUs !== undefined && frames ? mainUs / frames : undefined,
      receivedBytes,
      inboundFrames,
    };
  } finally {
    await sink.close();
  }
}
