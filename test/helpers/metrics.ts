import assert from "node:assert/strict";
import type { TestServer } from "./server.js";

/** The admin code the metrics tests start their server with (ADMIN_CODE), which opens /metrics. */
export const METRICS_CODE = "metrics-code-42";

/** One sample of /metrics: its name and labels, and its value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** GET /metrics over HTTP with the admin code: the Prometheus text. */
export async function fetchMetrics(server: TestServer, code = METRICS_CODE): Promise<string> {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Basic ${Buffer.from(`admin:${code}`).toString("base64")}` } });
  assert.equal(res.status, 200);
  return res.text();
}

/** The samples of Prometheus text (comments aside). */
export function samplesOf(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split("\n")) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}
