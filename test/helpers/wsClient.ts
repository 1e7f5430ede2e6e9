import WebSocket from "ws";

export interface Frame {
  type: string;
  data: any;
  id?: string;
}

/** A real WebSocket client of /ws that records every frame and how the socket closed. */
export interface WsPlayer {
  ws: WebSocket;
  frames: Frame[];
  closed: Promise<{ code: number; reason: string }>;
  mark(): number;
  next(type: string, pred?: (f: Frame) => boolean, options?: { since?: number; timeoutMs?: number }): Promise<Frame>;
  send(type: string, data?: unknown, id?: string): void;
  sendRaw(text: string | Buffer): void;
  close(): void;
}

export function wsConnect(port: number, query = ""): Promise<WsPlayer> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws${query}`);
  const frames: Frame[] = [];
  const waiters: Array<() => void> = [];
  ws.on("message", (data) => {
    frames.push(JSON.parse(String(data)));
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on("close", (code, reason) => {
      resolve({ code, reason: String(reason) });
      for (const w of waiters.splice(0)) w();
    }),
  );
  const player: WsPlayer = {
    ws,
    frames,
    closed,
    mark: () => frames.length,
    next: (type, pred = () => true, opts = {}) =>
      new Promise((resolve, reject) => {
        const since = opts.since ?? 0;
        const timer = setTimeout(
          () => reject(new Error(`no ${type} within ${opts.timeoutMs ?? 15_000} ms; got ${JSON.stringify(frames.slice(since)).slice(0, 500)}`)),
          opts.timeoutMs ?? 15_000,
        );
        const check = () => {
          const f = frames.slice(since).find((x) => (type === "*" || x.type === type) && pred(x));
          if (f) {
            clearTimeout(timer);
            resolve(f);
          } else waiters.push(check);
        };
        check();
      }),
    send: (type, data, id) => ws.send(JSON.stringify(id === undefined ? { type, data } : { type, data, id })),
    sendRaw: (text) => ws.send(text),
    close: () => ws.close(),
  };
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(player));
    ws.once("error", reject);
  });
}
