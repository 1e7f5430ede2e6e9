import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fetchMetrics, METRICS_CODE, samplesOf } from "../helpers/metrics.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { joinWorld } from "../helpers/worldClient.js";
import { theWorld, ticks } from "../helpers/worldRoom.js";

const DASHBOARD = new URL("../../docs/grafana/arena-dashboard.json", import.meta.url);

/** PromQL's functions, aggregations and keywords: the other names in a query are metrics. */
const PROMQL_WORDS = new Set([
  ..."sum avg min max count topk bottomk quantile stddev stdvar count_values group by without on ignoring group_left group_right bool and or unless offset".split(
    " ",
  ),
  ..."rate irate increase delta idelta deriv histogram_quantile abs ceil floor round clamp clamp_min clamp_max label_replace label_join vector scalar time sort sort_desc".split(
    " ",
  ),
  ..."avg_over_time max_over_time min_over_time sum_over_time count_over_time last_over_time absent absent_over_time changes resets predict_linear".split(" "),
]);

/** The metric names a query reads, and the labels it groups by. */
function readsOf(expr: string): { metrics: string[]; groupedBy: string[] } {
  const groupedBy = [...expr.matchAll(/\b(?:by|without)\s*\(([^)]*)\)/g)].flatMap((m) =>
    m[1]
      .split(",")
      .map((l) => l.trim())
      .filter(Boolean),
  );
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, "") // strings
    .replace(/\{[^}]*\}/g, "") // label matchers
    .replace(/\[[^\]]*\]/g, "") // ranges
    .replace(/\b(?:by|without)\s*\([^)]*\)/g, ""); // groupings
  const metrics = [...bare.matchAll(/[a-zA-Z_:][\w:]*/g)].map((m) => m[0]).filter((w) => !PROMQL_WORDS.has(w));
  return { metrics, groupedBy };
}

/** What /metrics serves: each metric's type, and the labels its samples carry. */
function exported(text: string) {
  const types = new Map<string, string>();
  for (const t of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) types.set(t[1], t[2]);
  const labels = new Map<string, Set<string>>();
  for (const s of samplesOf(text)) {
    const set = labels.get(s.name) ?? new Set<string>();
    for (const l of Object.keys(s.labels)) set.add(l);
    labels.set(s.name, set);
  }
  /** The metric a sample name belongs to (a histogram's _bucket, _sum and _count are its own). */
  const metricOf = (name: string) => {
    if (types.has(name)) return name;
    const base = name.replace(/_(bucket|sum|count)$/, "");
    return types.get(base) === "histogram" || types.get(base) === "summary" ? base : undefined;
  };
  return { types, labels, metricOf };
}

/** Every query of the dashboard that names a metric /metrics does not serve, or groups by a label its metrics' samples do not carry. */
function problems(dashboard: { panels: Array<{ title: string; targets: Array<{ expr: string }> }> }, text: string): string[] {
  const { labels, metricOf } = exported(text);
  const out: string[] = [];
  for (const p of dashboard.panels) {
    for (const { expr } of p.targets) {
      const { metrics, groupedBy } = readsOf(expr);
      if (metrics.length === 0) out.push(`${p.title}: ${expr} reads no metric`);
      for (const m of metrics) if (!metricOf(m)) out.push(`${p.title}: ${m} is not in /metrics`);
      // A label grouped by must be on the samples of one of the metrics read (`le` on a histogram's
      // buckets), where they have samples (a counter of trades has none before the first trade).
      const sampled = metrics.filter((m) => labels.has(m));
      if (sampled.length === 0) continue;
      const carried = new Set(sampled.flatMap((m) => [...labels.get(m)!]));
      for (const l of groupedBy) if (!carried.has(l)) out.push(`${p.title}: no sample of ${sampled.join(", ")} carries the label ${l}`);
    }
  }
  return out;
}

describe("the Grafana dashboard (docs/grafana/arena-dashboard.json)", function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { ADMIN_CODE: METRICS_CODE } });
  });
  after(async () => {
    await server?.close();
  });

  it("every query names a metric the server exports, grouped by labels its samples carry", async () => {
    // Traffic first, so the labelled series have samples: a player joins, moves, and the world ticks.
    const p = await joinWorld(server);
    p.room.send("player:move", { x: 101, z: 100 });
    await ticks(await theWorld(), 3);
    await p.room.leave();
    const text = await fetchMetrics(server);
    const dashboard = JSON.parse(readFileSync(DASHBOARD, "utf8"));
    const exprs = dashboard.panels.flatMap((panel: { targets: Array<{ expr: string }> }) => panel.targets.map((t) => t.expr));
    assert.ok(exprs.length >= 10, `${exprs.length} queries`);
    // The bandwidth is on it.
    for (const m of ["world_bytes_sent_total", "world_bytes_received_total", "world_online_players", "world_tick_duration_seconds_bucket"])
      assert.ok(
        exprs.some((e: string) => e.includes(m)),
        m,
      );
    assert.deepEqual(problems(dashboard, text), []);
    // The check is real: a made-up metric and a label nothing carries are named.
    const wrong = {
      panels: [
        { title: "Made up", targets: [{ expr: "sum by (shard) (rate(world_bytes_lost_total[1m]))" }, { expr: "sum by (shard) (world_online_players)" }] },
      ],
    };
    assert.deepEqual(problems(wrong, text), [
      "Made up: world_bytes_lost_total is not in /metrics",
      "Made up: no sample of world_online_players carries the label shard",
    ]);
  });
});
