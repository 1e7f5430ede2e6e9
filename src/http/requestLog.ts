import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
import type { ServerResponse } from "node:http";

/** The documented code a response was answered with (src/http/errors.ts sendError puts it there). */
function refusalOf(res: ServerResponse): string | undefined {
  const code = (res as ServerResponse & { locals?: { errorCode?: unknown } }).locals?.errorCode;
  return typeof code === "string" && code !== "INTERNAL" ? code : undefined;
}

/**
 * One log line per request; headers (tokens, cookies) never reach the log. Client errors (4xx, a
 * request the client or a timeout cut short) and documented refusals with a 5xx status (503
 * `RESTARTING`, `WORLD_UNAVAILABLE`, `DATABASE_UNAVAILABLE`, …) are logged at warn, with their code and
 * without a stack; only a real fault (500 `INTERNAL`, or a response no handler chose) is at error.
 */
export function requestLog(logger: Logger) {
  return pinoHttp({
    logger,
    serializers: {
      req: (req) => ({ method: req.method, url: String(req.url).replace(/([?&]token=)[^&]*/gi, "$1[redacted]") }),
      res: (res) => ({ statusCode: res.statusCode }),
    },
    customLogLevel: (_req, res, err) => {
      if (res.statusCode >= 500) return refusalOf(res) ? "warn" : "error";
      return res.statusCode >= 400 || err ? "warn" : "info";
    },
    customErrorObject: (_req, res, _err, val: Record<string, unknown>) => {
      const refusal = refusalOf(res);
      if (!refusal) return val;
      const { err: _dropped, ...rest } = val;
      return { ...rest, code: refusal };
    },
    customErrorMessage: (_req, res) => {
      const refusal = refusalOf(res);
      return refusal ? `request refused: ${refusal}` : "request errored";
    },
  });
}
