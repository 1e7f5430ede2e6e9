/**
 * A client's messages take effect in the order it sent them. Most are answered at once; a few
 * finish later (a staff command waits for its audit row, a trade request for the world of its
 * target, a private message for its recipient's name). While one of those is under way, the
 * messages after it wait in arrival order and run once it has finished, so that `/tp` then
 * `store:buy` buys from where the teleport put the player, never from where it was.
 */

/** Messages one client may have waiting behind an answer still under way; more are refused. */
export const MAX_WAITING = 64;

export class MessageOrder {
  private holds = 0;
  private readonly waiting: Array<() => void> = [];

  /** Run `handle` now, or after what is under way; false when too many wait already (refuse the message). */
  run(handle: () => void): boolean {
    if (this.holds === 0 && this.waiting.length === 0) {
      handle();
      return true;
    }
    if (this.waiting.length >= MAX_WAITING) return false;
    this.waiting.push(handle);
    return true;
  }

  /** The message being handled finishes when `done` settles: later ones wait for it. */
  hold(done: Promise<unknown>): void {
    this.holds++;
    const release = () => {
      this.holds--;
      this.drain();
    };
    done.then(release, release);
  }

  /**
   * Run what waits, in order, until one of them holds again. A handler that throws does not stop
   * the ones after it; its error goes to the process's unhandled-rejection log line.
   */
  private drain() {
    while (this.holds === 0 && this.waiting.length) {
      const next = this.waiting.shift()!;
      try {
        next();
      } catch (err) {
        void Promise.reject(err);
      }
    }
  }
}

const orders = new WeakMap<object, MessageOrder>();

/** The order of one client's messages (made on first use, gone with the client). */
export function orderOf(client: object): MessageOrder {
  let o = orders.get(client);
  if (!o) orders.set(client, (o = new MessageOrder()));
  return o;
}
