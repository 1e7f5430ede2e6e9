import pino, { type Logger } from "pino";

export type { Logger };

export interface LoggerOptions {
  level?: string;
  pretty?: boolean;
}

/**
 * The server's one logger: JSON lines in production, pretty-printed in development,
 * silent-by-default in tests unless LOG_LEVEL asks otherwise (read by config, passed in here).
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? "info";
  if (options.pretty) {
    return pino({
      level,
      transport: { target: "pino-pretty", options: { colorize: true, translateTime: "SYS:HH:MM:ss", singleLine: true } },
    });
  }
  return pino({ level });
}

/** A logger that drops everything: the default for unit tests and library callers. */
export const silentLogger: Logger = pino({ level: "silent" });
