import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";
import { Redis } from "ioredis";

/**
 * A real Redis for the suites that share state between server processes: TEST_REDIS_URL when set,
 * else a throw-away redis-server (Debian's redis-server package) on a free loopback port, no
 * persistence, stopped by `stop()`.
 */
export interface TestRedis {
  url: string;
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

export async function startTestRedis(): Promise<TestRedis> {
  if (process.env.TEST_REDIS_URL) return { url: process.env.TEST_REDIS_URL, stop: async () => {} };
  const bin = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].find((p) => existsSync(p)) ?? "redis-server";
  const port = await freePort();
  const child: ChildProcess = spawn(bin, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  const failed = new Promise<never>((_, reject) =>
    child.once("error", (err) => reject(new Error(`The Redis suites need redis-server (apt-get install redis-server): ${err.message}`))),
  );
  const url = `redis://127.0.0.1:${port}`;
  // Ready once it answers PING.
  const ready = (async () => {
    for (let i = 0; i < 200; i++) {
      const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      client.on("error", () => {});
      try {
        await client.connect();
        if ((await client.ping()) === "PONG") return;
      } catch {
        // not listening yet
      } finally {
        client.disconnect();
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error("redis-server did not start");
  })();
  await Promise.race([ready, failed]);
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
