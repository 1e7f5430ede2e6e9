import fs from "node:fs";

/**
 * CPU time of this process split into its main thread (the event loop: the room, the sockets) and
 * every other thread (V8's garbage-collection and compiler helpers, libuv's pool, the embedded
 * database's worker thread), read from Linux's per-thread scheduler statistics in nanoseconds.
 * process.cpuUsage() gives only the sum. Elsewhere than on Linux it is undefined.
 *
 * A thread that ended between two readings takes its time with it: the split is of the threads
 * alive at the end of a window (a server's are alive throughout).
 */
export interface ThreadCpu {
  /** µs per thread id. */
  byThread: Map<string, number>;
}

export function readThreadCpu(): ThreadCpu | undefined {
  let tids: string[];
  try {
    tids = fs.readdirSync("/proc/self/task");
  } catch {
    return undefined;
  }
  const byThread = new Map<string, number>();
  for (const tid of tids) {
    try {
      // schedstat: time on the CPU (ns), time waiting for it (ns), timeslices.
      const runNs = Number(fs.readFileSync(`/proc/self/task/${tid}/schedstat`, "utf8").split(" ")[0]);
      if (Number.isFinite(runNs)) byThread.set(tid, runNs / 1000);
    } catch {
      // The thread ended while the list was read.
    }
  }
  return { byThread };
}

/** CPU µs since `before` on the main thread and on all the others together. */
export function threadCpuSince(before: ThreadCpu | undefined): { mainUs: number; otherUs: number } | undefined {
  const now = readThreadCpu();
  if (!before || !now) return undefined;
  const main = String(process.pid);
  let mainUs = 0;
  let otherUs = 0;
  for (const [tid, us] of now.byThread) {
    const spent = us - (before.byThread.get(tid) ?? 0);
    if (tid === main) mainUs += spent;
    else otherUs += spent;
  }
  return { mainUs, otherUs };
}
