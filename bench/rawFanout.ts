import { performance } from "node:perf_hooks";
import WebSocket from "ws";
import { openSinkSockets } from "./sinkSockets.js";

/**
 * The socket's own cost, as the baseline of bench:ws: what the server process spends to write the
 * frames /ws wrote, with nothing but the `ws` package.
 *
 * `FrameTap` records, while the /ws phase's window runs, every text frame this process writes to
 * a `ws` socket (in that phase only /ws clients are connected): how many, their bytes, and a
 * sample of them. `rawFanout` then opens as many plain loopback sockets (the reading side in a
 * child process, bench/wsSink.ts, as the load clients are) and for the same number of ticks writes
 * each socket the same number of frames per tick, re-serialising sampled messages with
 * JSON.stringify as /ws does; it returns the server's CPU time per frame.
 */
export class FrameTap {
  frames = 0;
  bytes = 0;
  readonly sample: unknown[] = [];
  private original?: typeof WebSocket.prototype.send;

  constructor(private readonly sampleSize = 2000) {}

  start() {
    const original = WebSocket.prototype.send;
    this.original = original;
    const tap = this;
    WebSocket.prototype.send = function (this: WebSocket, data: any, ...rest: any[]) {
      if (typeof data === "string") {
        tap.frames++;
        tap.bytes += Buffer.byteLength(data);
        // Reservoir sampling: every frame of the window is as likely to be kept.
        if (tap.sample.length < tap.sampleSize) tap.sample.push(JSON.parse(data));
        else {
          const k = Math.floor(Math.random() * tap.frames);
          if (k < tap.sampleSize) tap.sample[k] = JSON.parse(data);
        }
      }
      return (original as any).call(this, data, ...rest);
    } as typeof WebSocket.prototype.send;
  }

  stop() {
    if (this.original) WebSocket.prototype.send = this.original;
    this.original = undefined;
  }
}

export interface RawFanoutResult {
  sockets: number;
  ticks: number;
  frames: number;
  bytes: number;
  /** Server CPU (user + system) per frame written, in microseconds. */
  cpuUsPerFrame: number;
  /** Bytes the reading side received (a check that the frames arrived). */
  receivedBytes: number;
}

/** Write `framesPerTick` of `messages` (round robin) to each of `sockets` loopback sockets, every `tickMs`, for `ticks` ticks. */
export async function rawFanout(sockets: number, messages: unknown[], framesPerTick: number, ticks: number, tickMs: number): Promise<RawFanoutResult> {
  if (messages.length === 0) throw new Error("no messages to send");
  const sink = await openSinkSockets(sockets);
  const conns = sink.conns;
  try {
    const whole = Math.floor(framesPerTick);
    const fraction = framesPerTick - whole;
    let next = 0;
    let frames = 0;
    let bytes = 0;
    let carry = 0;
    const cpu0 = process.cpuUsage();
    for (let t = 0; t < ticks; t++) {
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
    const receivedBytes = await sink.receivedBytes();
    return { sockets: conns.length, ticks, frames, bytes, cpuUsPerFrame: frames ? (cpu.user + cpu.system) / frames : 0, receivedBytes };
  } finally {
    await sink.close();
  }
}
