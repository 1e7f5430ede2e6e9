/**
 * A real local asset host for tests: node:http on 127.0.0.1 (a free port), serving
 *   /manifests/<rel>  from `manifestsDir`
 *   /<anything else>  from `rootDir` (when given), e.g. /models/..., /audio/music/...
 * with strong ETags (a hash of the content) and 304 for a matching If-None-Match (unless the
 * request says Cache-Control: no-cache, which real servers treat as a forced reload).
 *
 * Tests can change a file's content (in memory, the directory is never written), answer 404,
 * another status, or never answer for chosen files, read per-path counters, and stop the host
 * to simulate it being down (connections are then refused).
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

export interface AssetHostOptions {
  manifestsDir: string;
  rootDir?: string;
}

export interface AssetHost {
  /** Base URL without trailing slash, e.g. http://127.0.0.1:40123 */
  readonly url: string;
  /** Requests received per URL path (e.g. "/manifests/npcs.json"). */
  readonly requests: Map<string, number>;
  /** 200 responses per URL path. */
  readonly ok: Map<string, number>;
  /** 304 responses per URL path. */
  readonly notModified: Map<string, number>;
  /** The If-None-Match header of the last request per URL path (undefined when absent). */
  readonly lastIfNoneMatch: Map<string, string | undefined>;
  /** Total requests received. */
  total(): number;
  /** Requests for one manifest (relative path) or any URL path starting with "/". */
  count(file: string): number;
  okCount(file: string): number;
  notModifiedCount(file: string): number;
  /** Replace a file's content (manifest relative path, or a URL path starting with "/"). */
  setFile(file: string, content: string | Uint8Array): void;
  /** Answer 404 for a file (or stop doing so with `false`). */
  respond404(file: string, on?: boolean): void;
  /** Answer a fixed status (e.g. 503) for a file; `undefined` restores normal serving. */
  respondStatus(file: string, status: number | undefined): void;
  /** Accept requests for a file but never answer them (for timeouts). */
  hang(file: string, on?: boolean): void;
  resetCounters(): void;
  /** Close the server and every open connection: later requests are refused. */
  stop(): Promise<void>;
}

function urlPathOf(file: string): string {
  return file.startsWith("/") ? file : `/manifests/${file}`;
}

function strongEtag(body: Uint8Array): string {
  return `"${createHash("sha256").update(body).digest("hex").slice(0, 32)}"`;
}

function inc(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((tag) => tag.trim() === etag);
}

export async function startAssetHost(options: AssetHostOptions): Promise<AssetHost> {
  const requests = new Map<string, number>();
  const ok = new Map<string, number>();
  const notModified = new Map<string, number>();
  const lastIfNoneMatch = new Map<string, string | undefined>();
  const overrides = new Map<string, Uint8Array>();
  const missing = new Set<string>();
  const statuses = new Map<string, number>();
  const hanging = new Set<string>();
  const pending = new Set<http.ServerResponse>();

  async function bodyFor(urlPath: string): Promise<Uint8Array | undefined> {
    const override = overrides.get(urlPath);
    if (override) return override;
    let base: string | undefined;
    let rel: string;
    if (urlPath.startsWith("/manifests/")) {
      base = options.manifestsDir;
      rel = urlPath.slice("/manifests/".length);
    } else {
      base = options.rootDir;
      rel = urlPath.slice(1);
    }
    if (!base) return undefined;
    const segments = rel.split("/");
    if (segments.some((s) => s === ".." || s === "" || s === ".")) return undefined;
    try {
      return await readFile(path.join(base, ...segments));
    } catch {
      return undefined;
    }
  }

  const server = http.createServer((req, res) => {
    void (async () => {
      let urlPath: string;
      try {
        urlPath = decodeURIComponent(new URL(req.url ?? "/", "http://host").pathname);
      } catch {
        res.writeHead(400).end();
        return;
      }
      inc(requests, urlPath);
      const inm = req.headers["if-none-match"];
      lastIfNoneMatch.set(urlPath, Array.isArray(inm) ? inm.join(", ") : inm);

      if (hanging.has(urlPath)) {
        pending.add(res);
        res.on("close", () => pending.delete(res));
        return;
      }
      const status = statuses.get(urlPath);
      if (status !== undefined) {
        res.writeHead(status, { "content-type": "text/plain" }).end(`status ${status}`);
        return;
      }
      const body = missing.has(urlPath) || req.method !== "GET" ? undefined : await bodyFor(urlPath);
      if (!body) {
        res.writeHead(404, { "content-type": "text/plain" }).end("not found");
        return;
      }
      const etag = strongEtag(body);
      // Like real servers (Express static, for one): "Cache-Control: no-cache" asks for a full reload.
      const cacheControl = String(req.headers["cache-control"] ?? "");
      const reload = /(?:^|,)\s*no-cache\s*(?:,|$)/.test(cacheControl);
      if (!reload && matches(lastIfNoneMatch.get(urlPath), etag)) {
        inc(notModified, urlPath);
        res.writeHead(304, { etag }).end();
        return;
      }
      inc(ok, urlPath);
      const type = urlPath.endsWith(".json") ? "application/json" : "application/octet-stream";
      res.writeHead(200, { etag, "content-type": type, "content-length": body.length }).end(body);
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let stopped = false;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    ok,
    notModified,
    lastIfNoneMatch,
    total: () => [...requests.values()].reduce((a, b) => a + b, 0),
    count: (file) => requests.get(urlPathOf(file)) ?? 0,
    okCount: (file) => ok.get(urlPathOf(file)) ?? 0,
    notModifiedCount: (file) => notModified.get(urlPathOf(file)) ?? 0,
    setFile(file, content) {
      overrides.set(urlPathOf(file), typeof content === "string" ? Buffer.from(content, "utf8") : content);
    },
    respond404(file, on = true) {
      if (on) missing.add(urlPathOf(file));
      else missing.delete(urlPathOf(file));
    },
    respondStatus(file, status) {
      if (status === undefined) statuses.delete(urlPathOf(file));
      else statuses.set(urlPathOf(file), status);
    },
    hang(file, on = true) {
      if (on) hanging.add(urlPathOf(file));
      else hanging.delete(urlPathOf(file));
    },
    resetCounters() {
      requests.clear();
      ok.clear();
      notModified.clear();
      lastIfNoneMatch.clear();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const res of pending) res.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
