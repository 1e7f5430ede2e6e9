import { writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import path from "node:path";

/** A CPU profile of this process (the V8 sampling profiler, through the inspector). */
export class CpuProfile {
  private readonly session = new Session();

  async start(intervalUs = 200) {
    this.session.connect();
    await this.session.post("Profiler.enable");
    await this.session.post("Profiler.setSamplingInterval", { interval: intervalUs });
    await this.session.post("Profiler.start");
  }

  async stop(file: string): Promise<Profile> {
    const { profile } = (await this.session.post("Profiler.stop")) as unknown as { profile: Profile };
    await this.session.post("Profiler.disable");
    this.session.disconnect();
    await writeFile(file, JSON.stringify(profile));
    return profile;
  }
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const ROOT = process.cwd();

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  let where = url.replace(/^file:\/\//, "");
  if (where.startsWith(ROOT)) where = path.relative(ROOT, where);
  where = where.replace(/^node_modules\//, "");
  // tsx-compiled files carry no line numbers worth printing (the profile sees line 1).
  const line = lineNumber > 0 ? `:${lineNumber + 1}` : "";
  return `${functionName || "(anonymous)"} ${where ? `${where}${line}` : ""}`.trim();
}

/**
 * Self and total (inclusive) time per function, in ms, heaviest first, over the busy samples
 * (idle time and the profiler's own start-up are left out).
 */
export function summariseProfile(profile: Profile, top = 20): { totalMs: number; self: Array<[string, number]>; inclusive: Array<[string, number]> } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let totalMs = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(id)!;
    const own = label(node);
    if (own === "(idle)") return;
    const chain: string[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) chain.push(label(byId.get(cur)!));
    if (chain.some((l) => l.includes("bench/cpuProfile.ts"))) return;
    totalMs += ms;
    self.set(own, (self.get(own) ?? 0) + ms);
    const seen = new Set<string>();
    for (const l of chain) {
      if (l === "(root)" || seen.has(l)) continue;
      seen.add(l);
      inclusive.set(l, (inclusive.get(l) ?? 0) + ms);
    }
  });
  const heaviest = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  return { totalMs, self: heaviest(self), inclusive: heaviest(inclusive) };
}

export type ProfileSummary = ReturnType<typeof summariseProfile>;

/** A profile summary as report lines: a title, then the heaviest functions by self and by total time. */
export function profileLines(title: string, profile: ProfileSummary): string[] {
  const share = (ms: number) => `${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / profile.totalMs).toFixed(1).padStart(5)}%`;
  const out = [title, "  heaviest by self time:"];
  for (const [name, ms] of profile.self) out.push(`    ${share(ms)}  ${name}`);
  out.push("  heaviest by total time:");
  for (const [name, ms] of profile.inclusive) out.push(`    ${share(ms)}  ${name}`);
  return out;
}
