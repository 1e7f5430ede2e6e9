/** pino's numeric levels by name, and back. */
export const LOG_LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;
export type LogLevelName = keyof typeof LOG_LEVELS;
const LEVEL_NAMES = new Map<number, LogLevelName>(Object.entries(LOG_LEVELS).map(([name, n]) => [n, name as LogLevelName]));

/** How many of the latest log lines a process keeps for the admins (GET /api/admin/log). */
export const LOG_TAIL_LINES = 2000;
/** The longest line kept whole: a longer one is kept as its level, time and the start of its message. */
export const LOG_LINE_MAX_CHARS = 8192;

/** One line of the server's log, as the admins read it. */
export interface LogLine {
  /** Its place in this process's log (1, 2, …): a stream resumes after the last it had. */
  id: number;
  level: LogLevelName;
  /** When it was written (ms since 1970). */
  time: number;
  msg: string;
  /** The whole JSON line as pino wrote it (its fields: err, agentId, world, …). */
  line: Record<string, unknown>;
}

/**
 * The latest lines of this process's log, kept for the admins: a bounded ring (the oldest go once
 * LOG_TAIL_LINES are kept) that pino writes every line into as it writes the line out (the
 * logger's `streamWrite` hook, src/logger.ts), and that streams follow. Only lines at the logger's
 * level are written at all, so it holds what the process's output holds.
 */
export class LogTail {
  private readonly lines: LogLine[] = [];
  private next = 1;
  private readonly followers = new Set<(line: LogLine) => void>();

  constructor(readonly capacity = LOG_TAIL_LINES) {}

  /** A line as pino serialised it (one JSON object and a newline). */
  write(text: string): void {
    if (this.capacity <= 0) return;
    const line = this.parse(text);
    if (!line) return;
    this.lines.push(line);
    if (this.lines.length > this.capacity) this.lines.shift();
    for (const f of this.followers) f(line);
  }

  /** The kept lines at `level` or above after the line `after` (oldest first), the latest `limit` of them. */
  recent(options: { level?: LogLevelName; after?: number; limit?: number } = {}): LogLine[] {
    const min = LOG_LEVELS[options.level ?? "trace"];
    const after = options.after ?? 0;
    const out = this.lines.filter((l) => l.id > after && LOG_LEVELS[l.level] >= min);
    return options.limit === undefined ? out : out.slice(-options.limit);
  }

  /** Every line written from now on, until the returned stop. */
  follow(f: (line: LogLine) => void): () => void {
    this.followers.add(f);
    return () => this.followers.delete(f);
  }

  private parse(text: string): LogLine | undefined {
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return undefined;
    }
    const level = LEVEL_NAMES.get(line.level as number) ?? "info";
    const time = typeof line.time === "number" ? line.time : Date.now();
    let msg = typeof line.msg === "string" ? line.msg : "";
    if (text.length > LOG_LINE_MAX_CHARS) {
      msg = msg.slice(0, 500);
      line = { level: line.level, time, msg, truncated: true, chars: text.length };
    }
    return { id: this.next++, level, time, msg, line };
  }
}
