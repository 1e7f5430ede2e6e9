import { WS_LIMITS } from "./protocol.js";

/**
 * One connection's frame budget: `perSecond` frames in a window of a second (a window starts with
 * the first frame after the last one ended), and the frames it dropped over the budget within the
 * current second, by which a flood is judged. It lives on its connection and is counted in place:
 * a limiter keyed by connection (rate-limiter-flexible's in-memory one, used before) made a promise
 * per frame and a timer per connection per second, 5 % of /ws's busy time at N = 100 in bench:ws.
 */
export class FrameBudget {
  private windowEnds = 0;
  private used = 0;
  private dropSecond = -1;
  /** Frames dropped within the current second. */
  dropped = 0;

  constructor(
    private readonly perSecond: number = WS_LIMITS.messagesPerSecond,
    private readonly now: () => number = Date.now,
  ) {}

  /** Take a frame: true within the budget; false over it (counted as dropped). */
  take(): boolean {
    const t = this.now();
    if (t >= this.windowEnds) {
      this.windowEnds = t + 1000;
      this.used = 0;
    }
    if (++this.used <= this.perSecond) return true;
    const second = Math.floor(t / 1000);
    if (second !== this.dropSecond) {
      this.dropSecond = second;
      this.dropped = 0;
    }
    this.dropped++;
    return false;
  }
}
