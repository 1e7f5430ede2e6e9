import { createRequire } from "node:module";
import pino, { type Logger } from "pino";
import type PinoPretty from "pino-pretty";
import type { Config } from "./config.js";
import { LogTail } from "./logTail.js";

type LoggerSettings = pino.LoggerOptions<never, boolean>;

export type { Logger };

export interface LoggerOptions {
  level?: string;
  pretty?: boolean;
  /** Keep the latest lines here too (for the admins' live log): every line written is handed to it. */
  tail?: LogTail;
  /** Where the lines go (default: standard output). */
  destination?: pino.DestinationStream;
}

const TAILS = new WeakMap<Logger, LogTail>();

/** The tail a logger made by createLogger keeps its lines in, if any. */
export function logTailOf(logger: Logger): LogTail | undefined {
  return TAILS.get(logger);
}

/**
 * The server's one logger: JSON lines in production, pretty-printed in development,
 * silent-by-default in tests unless LOG_LEVEL asks otherwise (read by config, passed in here).
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const tail = options.tail;
  const settings: LoggerSettings = {
    level: options.level ?? "info",
    ...(tail ? { hooks: { streamWrite: (line: string) => (tail.write(line), line) } } : {}),
  };
  let logger: Logger;
  if (options.pretty) {
    // Formatted here, each line written before the call returns: a transport would start a thread
    // of its own (~0.2 s of CPU beside the start, on the same cores), and development's few lines
    // a second cost the loop little. Loaded only here: JSON logging never loads it.
    const pretty = createRequire(import.meta.url)("pino-pretty") as typeof PinoPretty;
    logger = pino(settings, pretty({ colorize: true, translateTime: "SYS:HH:MM:ss", singleLine: true, sync: true }));
  } else logger = options.destination ? pino(settings, options.destination) : pino(settings);
  if (tail) TAILS.set(logger, tail);
  return logger;
}

/** The server's logger from its configuration: JSON, pretty in development; its latest lines kept for the admins. */
export function serverLogger(config: Pick<Config, "logLevel" | "nodeEnv">): Logger {
  return createLogger({ level: config.logLevel, pretty: config.nodeEnv === "development", tail: new LogTail() });
}

/** A logger that drops everything: the default for unit tests and library callers. */
export const silentLogger: Logger = pino({ level: "silent" });

/**
 * What any client can make Colyseus log at will (an oversized or truncated frame, a stale
 * reconnection token or seat): a client's mistake, logged at info as one line with no stack.
 */
const CLIENT_CAUSED = /max payload|messagepack|unexpected end|reconnection token|seat reservation|expired/i;

/**
 * Colyseus's own log lines (console-style calls: strings and errors) through our logger, so
 * nothing of the framework's is printed outside it. Its errors are the framework's view of a
 * client's mistake as often as a fault of ours: the known client-caused ones are info lines,
 * the rest warnings.
 */
export function frameworkLogger(logger: Logger) {
  const child = logger.child({ from: "colyseus" });
  const line = (level: "debug" | "info" | "warn", args: unknown[]) => {
    const err = args.find((a): a is Error => a instanceof Error);
    const text = args
      .filter((a) => !(a instanceof Error))
      .map((a) => (typeof a === "string" ? a : safeJson(a)))
      .join(" ");
    const message = [text, err?.message].filter(Boolean).join(" ");
    if (level !== "debug" && CLIENT_CAUSED.test(message)) return child.info(message);
    if (err) child[level]({ err }, text || err.message);
    else child[level](text);
  };
  return {
    trace: (...args: unknown[]) => line("debug", args),
    debug: (...args: unknown[]) => line("debug", args),
    info: (...args: unknown[]) => line("info", args),
    warn: (...args: unknown[]) => line("warn", args),
    error: (...args: unknown[]) => line("warn", args),
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
