import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** The server's Prometheus metrics, served at /metrics. One registry per process. */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const tickDuration = new Histogram({
  name: "world_tick_duration_seconds",
  help: "Time spent running one world tick (phase=total) and each of its phases (players, npcs, sync, views, send, patch, handOver, ...)",
  labelNames: ["phase"] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.6],
  registers: [registry],
});

export const onlinePlayers = new Gauge({
  name: "world_online_players",
  help: "Players in each world this process runs (by world id)",
  labelNames: ["world"] as const,
  registers: [registry],
});

/** 1, labelled with this process's Colyseus process id (a cluster's processes tell their metrics apart by it). */
export const processInfo = new Gauge({
  name: "arena_process_info",
  help: "This server process: its Colyseus process id, and whether it is one of a cluster",
  labelNames: ["process_id", "cluster"] as const,
  registers: [registry],
});

export const worldSaves = new Counter({
  name: "world_saves_total",
  help: "World saves written, by outcome",
  labelNames: ["outcome"] as const,
  registers: [registry],
});

export const tradesEnded = new Counter({
  name: "trades_total",
  help: "Trades ended, by outcome (completed, or the cancel reason)",
  labelNames: ["outcome"] as const,
  registers: [registry],
});

export const storeDeals = new Counter({
  name: "store_deals_total",
  help: "Store purchases and sales, by kind (buy, sell) and outcome (written, failed)",
  labelNames: ["kind", "outcome"] as const,
  registers: [registry],
});

export const duelsEnded = new Counter({
  name: "duels_total",
  help: "Duels ended, by outcome (win, forfeit, disconnect, draw, unsettled, or the cancel reason)",
  labelNames: ["outcome"] as const,
  registers: [registry],
});

export const tradeCommitDuration = new Histogram({
  name: "trade_commit_duration_seconds",
  help: "Time from both confirm-screen accepts to the committed swap",
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
  registers: [registry],
});

/**
 * Run when the metrics are read (a scrape): counters kept as plain numbers on a hot path (the
 * bandwidth of every frame) are added to their metrics then, not at each frame.
 */
export const beforeCollect = new Set<() => void>();
const collectPending = () => {
  for (const f of beforeCollect) f();
};

export const wireBytesSent = new Counter({
  name: "world_bytes_sent_total",
  help: "Bytes the world room sent its players' connections, by world, transport (sdk: Colyseus frames; ws: the JSON adapter's frames) and message type (join, state and patch: schema frames)",
  labelNames: ["world", "transport", "type"] as const,
  registers: [registry],
  collect: collectPending,
});

export const wireBytesReceived = new Counter({
  name: "world_bytes_received_total",
  help: "Bytes the world room received from its players' connections, by world, transport and message type (other: a type the protocol does not have)",
  labelNames: ["world", "transport", "type"] as const,
  registers: [registry],
  collect: collectPending,
});

export const wireFramesSent = new Counter({
  name: "world_frames_sent_total",
  help: "Frames the world room sent its players' connections, by world, transport and message type",
  labelNames: ["world", "transport", "type"] as const,
  registers: [registry],
  collect: collectPending,
});
