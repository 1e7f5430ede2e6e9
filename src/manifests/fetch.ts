/**
 * Fetching one manifest from the asset host, conditionally when an ETag is known:
 * 304 leaves the cached file untouched, 200 rewrites it atomically.
 */
import path from "node:path";
import { fileExists, writeFileAtomic } from "./fsAtomic.js";

export type FetchStatus =
  /** 200: the file was (re)written. */
  | "updated"
  /** 304: the cached copy is current and was not touched. */
  | "not-modified"
  /** 404 (or 403/410, as object stores answer for absent keys): the host does not have it. */
  | "not-found"
  /** Connection refused, DNS failure, timeout: the host could not be reached. */
  | "unreachable"
  /** 5xx or another unexpected status: the host is there but failing. */
  | "server-error"
  /** 200 with a body that is not JSON: the cached copy (if any) was kept. */
  | "bad-content";

export interface FetchResult {
  rel: string;
  status: FetchStatus;
  httpStatus?: number;
  etag?: string;
  /** For bad-content: whether the body was written anyway (there was no cached copy). */
  written?: boolean;
  error?: string;
}

export interface FetchManifestOptions {
  baseUrl: string;
  rel: string;
  manifestDir: string;
  /** Sent as If-None-Match when the cached file exists. */
  etag?: string;
  fetchImpl: typeof fetch;
  timeoutMs: number;
}

/** `${base}/manifests/${rel}`, each path segment escaped. */
export function manifestUrl(baseUrl: string, rel: string): string {
  const clean = baseUrl.replace(/\/+$/, "");
  return `${clean}/manifests/${rel.split("/").map(encodeURIComponent).join("/")}`;
}

function describeNetworkError(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === "TimeoutError" || e?.name === "AbortError") return "timed out";
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
}

async function discard(res: Response): Promise<void> {
  try {
    await res.body?.cancel();
  } catch {
    // nothing to free
  }
}

export async function fetchManifest(opts: FetchManifestOptions): Promise<FetchResult> {
  const { rel } = opts;
  const target = path.join(opts.manifestDir, rel);
  const cached = await fileExists(target);
  // An explicit Cache-Control: fetch() otherwise adds "no-cache" to any conditional request, and
  // servers that honour it (Express static, for one) then ignore If-None-Match and send 200.
  const headers: Record<string, string> = { accept: "application/json", "cache-control": "max-age=0" };
  if (opts.etag && cached) headers["if-none-match"] = opts.etag;

  let res: Response;
  let body: string | undefined;
  try {
    res = await opts.fetchImpl(manifestUrl(opts.baseUrl, rel), {
      headers,
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
    if (res.status === 200) body = await res.text();
  } catch (err) {
    return { rel, status: "unreachable", error: describeNetworkError(err) };
  }

  const httpStatus = res.status;
  if (httpStatus === 304) {
    await discard(res);
    return { rel, status: "not-modified", httpStatus, etag: opts.etag };
  }
  if (httpStatus === 404 || httpStatus === 403 || httpStatus === 410) {
    await discard(res);
    return { rel, status: "not-found", httpStatus };
  }
  if (httpStatus !== 200 || body === undefined) {
    await discard(res);
    return { rel, status: "server-error", httpStatus, error: `HTTP ${httpStatus}` };
  }

  const etag = res.headers.get("etag") ?? undefined;
  try {
    JSON.parse(body);
  } catch (err) {
    // Keep a good cached copy rather than replace it with garbage; with no cached copy, write it
    // so the loader reports the file as unparseable by name.
    if (!cached) await writeFileAtomic(target, body);
    return { rel, status: "bad-content", httpStatus, written: !cached, error: (err as Error).message };
  }
  await writeFileAtomic(target, body);
  return { rel, status: "updated", httpStatus, etag };
}
