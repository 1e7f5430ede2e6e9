import type { IncomingMessage } from "node:http";
import express, { type RequestHandler } from "express";
import { HttpError, sendError } from "./errors.js";
import { bodyTextProblem } from "./requestTarget.js";

/** The largest request body any route takes (JSON, after decompression). */
export const BODY_LIMIT = 64 * 1024;
/**
 * A body over the limit is still read, and thrown away, up to this many bytes, so that the
 * client (which is still sending) receives the 413 instead of a connection reset. A longer body
 * gets the 413 and the connection is closed.
 */
export const DISCARD_CAP = 10 * 1024 * 1024;

const declaredLength = (req: IncomingMessage) => {
  const header = req.headers["content-length"];
  return header === undefined ? undefined : Number(header);
};

/** Answer 413 and close the connection once the answer is out (a body beyond the cap is not read). */
function refuseAndClose(req: IncomingMessage, res: Parameters<RequestHandler>[1]) {
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  res.set("Connection", "close");
  res.on("finish", () => req.socket.destroy());
  sendError(res, 413, "PAYLOAD_TOO_LARGE", `The request body is larger than ${BODY_LIMIT} bytes`);
}

/**
 * Request bodies: JSON (and, on `formPaths` only, HTML forms: the OAuth sign-in page and token
 * requests), also gzip, deflate or br encoded, up to BODY_LIMIT, checked for text no
 * route can store (NUL, unpaired surrogates; `INVALID_PAYLOAD` naming the field) and nesting.
 * A body over the limit answers 413 `PAYLOAD_TOO_LARGE` after it has been read and discarded (up
 * to DISCARD_CAP); a body the server cannot decode answers 400 (see errors.ts). A body of another
 * type is read to its end and discarded. Every body is read before anything answers, so a client
 * still sending never meets a reset connection. One home for all of it: every body on the Express
 * side goes through here.
 */
export function requestBodies(formPaths: readonly string[] = []): RequestHandler {
  const json = express.json({ limit: BODY_LIMIT });
  // HTML forms and OAuth's token requests (RFC 6749: application/x-www-form-urlencoded).
  const form = express.urlencoded({ extended: false, limit: BODY_LIMIT, parameterLimit: 100 });
  return (req, res, next) => {
    const length = declaredLength(req);
    if (length !== undefined && length > BODY_LIMIT) {
      if (length > DISCARD_CAP) return refuseAndClose(req, res);
      // Read the declared body to its end, keep none of it, then answer.
      req.on("end", () => next(new HttpError(413, "PAYLOAD_TOO_LARGE", `The request body is larger than ${BODY_LIMIT} bytes`)));
      req.on("data", () => {});
      return;
    }
    const chunked = length === undefined && req.headers["transfer-encoding"] !== undefined;
    let received = 0;
    if (chunked) {
      // A chunked body has no declared length: count what arrives (the parser stops at the limit
      // but would otherwise read on without end).
      const count = (chunk: Buffer) => {
        received += chunk.length;
        if (received > DISCARD_CAP) {
          req.off("data", count);
          refuseAndClose(req, res);
        }
      };
      req.on("data", count);
    }
    const isForm = formPaths.includes(req.path) && req.is("application/x-www-form-urlencoded") === "application/x-www-form-urlencoded";
    if ((chunked || (length ?? 0) > 0) && !req.is("application/json") && !isForm) {
      // No route takes another type: the body is read to its end and kept nowhere (req.body stays
      // undefined), so that whatever answers, the client, still sending, reads that answer rather
      // than a reset connection. Over the limit it is a 413, as a JSON body is.
      if (!chunked) req.on("data", (chunk: Buffer) => (received += chunk.length));
      req.on("end", () =>
        received > BODY_LIMIT ? next(new HttpError(413, "PAYLOAD_TOO_LARGE", `The request body is larger than ${BODY_LIMIT} bytes`)) : next(),
      );
      return;
    }
    (isForm ? form : json)(req, res, (err?: unknown) => {
      if (err) return next(err);
      const problem = req.body === undefined ? undefined : bodyTextProblem(req.body);
      if (problem) return next(new HttpError(400, "INVALID_PAYLOAD", problem));
      next();
    });
  };
}
