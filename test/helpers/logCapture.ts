import pino, { type Logger } from "pino";

export interface LogLine {
  level: number;
  msg?: string;
  [key: string]: unknown;
}

/** A real pino logger whose JSON lines are kept in memory, for tests of what the server logs. */
export function captureLogs(level = "info"): { logger: Logger; lines: LogLine[]; text(): string } {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const logger = pino({ level }, { write: (s: string) => void (raw.push(s), lines.push(JSON.parse(s))) });
  return { logger, lines, text: () => raw.join("") };
}

/** pino's numeric levels. */
export const LEVEL = { info: 30, warn: 40, error: 50, fatal: 60 } as const;
