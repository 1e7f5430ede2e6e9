import type { ErrorRequestHandler, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { isDatabaseUnavailable } from "../db/unavailable.js";

/** An error with the HTTP status and code the client is told. */
export class HttpError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export function sendError(res: Response, status: number, code: string, message: string) {
  // The request log reads it: a documented refusal is no fault of the server's (src/http/requestLog.ts).
  res.locals.errorCode = code;
  res.status(status).json({ success: false, error: { code, message } });
}

/** Unknown routes under /api, and every other path nothing served (the web client's files aside): the JSON error, never an HTML page. */
export const notFound: RequestHandler = (req, res) => {
  sendError(res, 404, "NOT_FOUND", `No such endpoint: ${req.method} ${req.path}`);
};

/** What body-parser's errors (and the decompression errors it passes on) tell the client. */
function bodyError(err: { type?: unknown; status?: unknown; code?: unknown }): { status: number; code: string; message: string } | undefined {
  switch (err.type) {
    case "entity.parse.failed":
      return { status: 400, code: "BAD_JSON", message: "The request body is not valid JSON" };
    case "entity.too.large":
      return { status: 413, code: "PAYLOAD_TOO_LARGE", message: "The request body is too large" };
    case "encoding.unsupported":
      return { status: 400, code: "UNSUPPORTED_ENCODING", message: "Unsupported Content-Encoding: send identity, gzip, deflate or br" };
    case "charset.unsupported":
      return { status: 400, code: "UNSUPPORTED_CHARSET", message: "Unsupported charset: send UTF-8" };
  }
  // zlib's errors (Z_DATA_ERROR, brotli's ERR__ERROR_FORMAT_..., ...): the body is not what its Content-Encoding says.
  if (typeof err.code === "string" && /^(Z_|ERR__|ERR_BROTLI|ERR_ZSTD)/.test(err.code)) {
    return { status: 400, code: "BAD_ENCODING", message: "The request body does not match its Content-Encoding" };
  }
  if (typeof err.status === "number" && err.status >= 400 && err.status < 500) {
    return { status: err.status === 413 ? 413 : 400, code: err.status === 413 ? "PAYLOAD_TOO_LARGE" : "BAD_REQUEST", message: "The request could not be read" };
  }
  return undefined;
}

/**
 * The last handler: every error becomes the documented body, never a stack trace. Client errors
 * are answered without an error-level log line; a database outage is 503 DATABASE_UNAVAILABLE
 * (logged at warn); only real faults are 500, logged at error.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) {
      res.end();
      return;
    }
    if (err instanceof HttpError) {
      sendError(res, err.status, err.code, err.message);
      return;
    }
    if (isDatabaseUnavailable(err)) {
      logger.warn(
        { path: req.path, method: req.method, cause: err instanceof Error ? err.message.split("\n").filter(Boolean).pop() : String(err) },
        "database unavailable",
      );
      res.set("Retry-After", "5");
      return sendError(res, 503, "DATABASE_UNAVAILABLE", "The database is unavailable; try again shortly");
    }
    if (err && typeof err === "object") {
      const answer = bodyError(err);
      if (answer) return sendError(res, answer.status, answer.code, answer.message);
    }
    logger.error({ err, path: req.path, method: req.method }, "unhandled error in request");
    sendError(res, 500, "INTERNAL", "Internal server error");
  };
}
