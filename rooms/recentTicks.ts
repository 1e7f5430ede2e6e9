/** The durations of a world's latest ticks, for /status: how many, their median and p99 in ms. */
export class RecentTicks {
  private readonly ms: number[] = [];

  constructor(private readonly keep = 200) {}

  add(ms: number) {
    this.ms.push(ms);
    if (this.ms.length > this.keep) this.ms.shift();
  }

  summary(): { ticks: number; medianMs: number; p99Ms: number } {
    const sorted = [...this.ms].sort((a, b) => a - b);
    const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : 0);
    const round = (ms: number) => Math.round(ms * 100) / 100;
    return { ticks: sorted.length, medianMs: round(at(0.5)), p99Ms: round(at(0.99)) };
  }
}
