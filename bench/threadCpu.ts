import fs from "node:fs";

/**
 * The CPU time of this process's main thread (the event loop: the room, the sockets), in µs, read
 * from Linux's per-thread scheduler statistics (nanoseconds). process.cpuUsage() gives only the sum
 * over every thread; the rest of it is the other threads' (V8's garbage-collection and compiler
 * helpers, libuv's pool, the embedded database's worker thread). Undefined elsewhere than on Linux.
 */
export function mainThreadCpuUs(): number | undefined {
  try {
    // schedstat: time on the CPU (ns), time waiting for it (ns), timeslices.
    const runNs = Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]);
    return Number.isFinite(runNs) ? runNs / 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** The main thread's CPU µs since `before` (a mainThreadCpuUs() reading). */
export function mainThreadCpuSince(before: number | undefined): number | undefined {
  const now = mainThreadCpuUs();
  return before === undefined || now === undefined ? undefined : now - before;
}
