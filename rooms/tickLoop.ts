/**
 * A fixed-rate loop that does not drift: each tick is scheduled against the loop's start time
 * (start + n × interval), not against the end of the previous one, so slow ticks are caught up
 * and timer jitter does not accumulate. Tick durations are kept for metrics and benchmarks.
 */
export class TickLoop {
  private timer: NodeJS.Timeout | undefined;
  private start = 0;
  private count = 0;
  private running = false;
  /** Durations of the most recent ticks in milliseconds (a ring of `window` entries). */
  readonly durations: number[] = [];
  /** Ticks that ran more than one interval late (the loop skipped ahead). */
  skipped = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly onTick: () => void,
    private readonly window = 1000,
    /** Told every tick's duration in milliseconds (metrics). */
    private readonly onDuration?: (ms: number) => void,
  ) {}

  begin() {
    if (this.running) return;
    this.running = true;
    this.start = performance.now();
    this.count = 0;
    this.schedule();
  }

  stop() {
    this.running = false;
    clearTimeout(this.timer);
  }

  private schedule() {
    if (!this.running) return;
    this.count++;
    let due = this.start + this.count * this.intervalMs;
    const now = performance.now();
    if (due < now - this.intervalMs) {
      // More than a whole tick behind: do not burst to catch up; start counting from now.
      const behind = Math.floor((now - due) / this.intervalMs);
      this.skipped += behind;
      this.count += behind;
      due = this.start + this.count * this.intervalMs;
    }
    this.timer = setTimeout(() => this.run(), Math.max(0, due - now));
  }

  private run() {
    if (!this.running) return;
    const t0 = performance.now();
    try {
      this.onTick();
    } finally {
      const d = performance.now() - t0;
      if (this.durations.length >= this.window) this.durations.shift();
      this.durations.push(d);
      this.onDuration?.(d);
      this.schedule();
    }
  }
}
