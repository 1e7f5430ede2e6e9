import { performance } from "node:perf_hooks";
import WebSocket from "ws";

/**
 * A /ws player of bench:cluster: it connects to any process of the cluster with `?world=`,
 * follows a `world:redirect` when the world runs elsewhere, then walks a few tiles every few
 * ticks. It counts every frame it receives (by type, read from the frame's start: only its first
 * player:sync is parsed), and times its join: from opening the first socket to `authenticated`.
 */
export class ClusterPlayer {
  frames = 0;
  redirected = false;
  joinMs = 0;
  errors = 0;
  /** Joins tried again after a 4013 (the world was being handed over). */
  retries = 0;
  private socket?: WebSocket;
  private timer?: NodeJS.Timeout;
  private at = { x: 0, z: 0 };

  constructor(
    private readonly token: string,
    private readonly world: number,
  ) {}

  /** Join through `port` (following a redirect once); resolves once the player is in the world. */
  async join(port: number): Promise<void> {
    // A world handed between processes is briefly not running (4013): try again, as a client would.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.joinOnce(port);
      } catch (err) {
        if (attempt >= 10 || !/closed with 4013/.test((err as Error).message)) throw err;
        this.retries++;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  private async joinOnce(port: number): Promise<void> {
    const started = performance.now();
    const first = await this.open(`ws://127.0.0.1:${port}/ws?updates=changes&world=${this.world}&token=${encodeURIComponent(this.token)}`);
    if (first.redirect) {
      this.redirected = true;
      const url = new URL(first.redirect);
      url.searchParams.set("token", this.token);
      const again = await this.open(url.toString());
      if (again.redirect) throw new Error(`redirected twice: ${again.redirect}`);
    }
    this.joinMs = performance.now() - started;
  }

  /** Walk: a move to a tile within 4 of where it stands, every `everyMs` (first one at a random offset). */
  walk(everyMs: number, random: () => number) {
    const step = () => {
      if (this.socket?.readyState !== WebSocket.OPEN) return;
      const x = this.at.x + Math.floor(random() * 9) - 4;
      const z = this.at.z + Math.floor(random() * 9) - 4;
      this.socket.send(JSON.stringify({ type: "player:move", data: { x, z } }));
    };
    setTimeout(
      () => {
        step();
        this.timer = setInterval(step, everyMs);
      },
      Math.floor(random() * everyMs),
    );
  }

  close() {
    clearInterval(this.timer);
    this.socket?.terminate();
  }

  /** One socket: resolves with the redirect's URL, or once `authenticated` and the first `player:sync` came. */
  private open(url: string): Promise<{ redirect?: string }> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      let authenticated = false;
      const fail = (why: string) => {
        socket.terminate();
        reject(new Error(why));
      };
      socket.on("message", (data) => {
        const text = String(data);
        this.frames++;
        const type = text.slice(9, text.indexOf('"', 9));
        if (type === "world:redirect") return resolve({ redirect: (JSON.parse(text) as { data: { url: string } }).data.url });
        if (type === "authenticated") authenticated = true;
        else if (type === "error") this.errors++;
        else if (type === "player:sync" && authenticated && this.socket !== socket) {
          const sync = (JSON.parse(text) as { data: { position: { x: number; z: number } } }).data;
          this.at = { x: Math.round(sync.position.x), z: Math.round(sync.position.z) };
          this.socket = socket;
          resolve({});
        }
      });
      socket.on("close", (code) => {
        if (this.socket !== socket) fail(`closed with ${code} before joining`);
      });
      socket.on("error", (err) => fail(err.message));
    });
  }
}
