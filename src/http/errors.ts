import type { ErrorRequestHandler, RequestHandler, Response } from "express";
import type { Logger } from "pino";

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
  res.status(status).json({ success: false, error: { code, message } });
}

/** Unknown routes under /api. */
export const apiNotFound: RequestHandler = (req, res) => {
  sendError(res, 404, "NOT_FOUND", `No such endpoint: ${req.method} ${req.path}`);
};

/** The last handler: every error becomes the documented body, never a stack trace. */
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
    // body-parser's errors carry a status and a type.
    if (err && typeof err === "object" && "type" in err) {
      if (err.type === "entity.parse.failed") return sendError(res, 400, "BAD_JSON", "The request body is not valid JSON");
      if (err.type === "entity.too.large") return sendError(res, 400, "PAYLOAD_TOO_LARGE", "The request body is too large");
      if (typeof err.status === "number" && err.status >= 400 && err.status < 500) {
        return sendError(res, err.status, "BAD_REQUEST", "The request could not be read");
      }
    }
    logger.error({ err, path: req.path, method: req.method }, "unhandled error in request");
    sendError(res, 500, "INTERNAL", "Internal server error");
  };
}
