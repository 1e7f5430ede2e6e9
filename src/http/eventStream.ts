import type { Request, Response } from "express";

/** A comment line on an idle stream this often, so proxies keep it open. */
export const STREAM_HEARTBEAT_MS = 15_000;
/** A stream whose client reads slower than it is written to is ended once this much waits unsent. */
export const STREAM_BACKLOG_MAX_BYTES = 1 << 20;

/**
 * Answer a request as a stream of server-sent events: the headers (no proxy buffering), the
 * client's retry delay, and a heartbeat while it lasts. `send` writes one event (its id, so a
 * reconnecting EventSource resumes after it); a client that lets more than
 * STREAM_BACKLOG_MAX_BYTES pile up is let go (it may reconnect and resume). `onClose` runs once
 * when the stream ends, whoever ended it.
 */
export function openEventStream(res: Response, onClose: () => void) {
  res.status(200).set({ "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache", Connection: "keep-alive", "X-Accel-Buffering": "no" });
  res.flushHeaders();
  res.write(`retry: 3000\n\n`);
  const heartbeat = setInterval(() => res.write(`: keep-alive\n\n`), STREAM_HEARTBEAT_MS);
  heartbeat.unref();
  res.on("close", () => {
    clearInterval(heartbeat);
    onClose();
  });
  return {
    send(event: string, id: number, data: unknown) {
      if (res.writableEnded) return;
      if (res.writableLength > STREAM_BACKLOG_MAX_BYTES) return void res.end();
      res.write(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
  };
}

/** A reconnecting EventSource's `Last-Event-ID`: the last event it had. */
export function lastEventId(req: Request): number | undefined {
  const v = req.get("last-event-id");
  return v !== undefined && /^\d{1,15}$/.test(v) ? Number(v) : undefined;
}
