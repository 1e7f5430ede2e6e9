import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorCode, matchMaker, ServerError, type AuthContext } from "@colyseus/core";
import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Logger } from "pino";
import { bearerToken, verifyToken } from "../auth/tokens.js";
import { isDatabaseUnavailable } from "../db/unavailable.js";
import { bodyTextProblem, requestTargetProblem } from "./requestTarget.js";
import { reserveWorldSeat } from "../../rooms/worldJoin.js";
import { chooseWorld, WorldChoiceError, worldIdOption, type WorldEntry } from "../worldSpecs.js";

/**
 * Colyseus's matchmaking routes (`POST /matchmake/:method/:roomName`), served here instead of by
 * Colyseus's own router so that the server's rules hold on them:
 * - rooms are made by the server only: `create` is refused, and `joinOrCreate` only joins a room
 *   that exists (the worlds are made at start-up, trade rooms by their world);
 * - every call counts as a request, per address and per account (a valid token);
 * - the body is read with a cap and answered with the documented error body, never a stack trace.
 * The answers keep what `@colyseus/sdk` reads: a seat reservation on success; on failure the
 * status as the error code and `message` (besides the documented `error` object).
 */

export const MATCHMAKE_PREFIX = "/matchmake/";
/** The largest join options a client may send. */
export const MATCHMAKE_BODY_LIMIT = 16 * 1024;

/** Room types a client may ask to join by name (the rest only by id, with a seat the server reserved). */
const JOINABLE_BY_NAME = new Set(["world"]);

export interface MatchmakeGateOptions {
  jwtSecret: string;
  logger: Logger;
  /** Counted per address, and per account when the request carries a valid token. */
  limiter?: RateLimiterAbstract;
  clientAddress(req: IncomingMessage): string;
  corsHeaders(req: IncomingMessage): Record<string, string>;
  /** The worlds and where each stands (ctx.world.worlds). */
  worlds(): Promise<WorldEntry[]>;
}

class GateError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Does this request belong to the gate? (POST under /matchmake/; OPTIONS stays with Colyseus's CORS answer.) */
export function isMatchmakeRequest(req: IncomingMessage): boolean {
  return req.method === "POST" && (req.url ?? "").startsWith(MATCHMAKE_PREFIX);
}

/** The gate's request handler. */
export function matchmakeGate(options: MatchmakeGateOptions) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const cors = options.corsHeaders(req);
    serve(req, options)
      .then((body) => reply(res, 200, body, cors))
      .catch((err: unknown) => {
        if (err instanceof GateError) {
          options.logger.debug({ status: err.status, code: err.code, url: req.url }, "matchmaking refused");
          return reply(res, err.status, { success: false, error: { code: err.code, message: err.message }, message: err.message }, { ...cors, ...err.headers });
        }
        if (isDatabaseUnavailable(err)) {
          options.logger.warn({ url: req.url }, "matchmaking: database unavailable");
          return reply(
            res,
            503,
            {
              success: false,
              error: { code: "DATABASE_UNAVAILABLE", message: "The database is unavailable; try again shortly" },
              message: "The database is unavailable",
            },
            { ...cors, "Retry-After": "5" },
          );
        }
        options.logger.error({ err, url: req.url }, "matchmaking failed");
        reply(res, 500, { success: false, error: { code: "INTERNAL", message: "Internal server error" }, message: "Internal server error" }, cors);
      });
  };
}

async function serve(req: IncomingMessage, options: MatchmakeGateOptions): Promise<unknown> {
  const url = req.url ?? "";
  const problem = requestTargetProblem(url);
  if (problem) {
    req.resume();
    throw new GateError(400, "BAD_REQUEST", problem);
  }
  const token = bearerOf(req);
  const accountId = accountOf(token, options.jwtSecret);
  if (options.limiter) await consume(options.limiter, [`ip:${options.clientAddress(req)}`, ...(accountId ? [`account:${accountId}`] : [])], req);

  const match = /^\/matchmake\/([A-Za-z]+)\/([A-Za-z0-9_-]+)\/?(?:\?.*)?$/.exec(url);
  if (!match) {
    req.resume();
    throw new GateError(404, "NOT_FOUND", "No such matchmaking route: POST /matchmake/<method>/<roomName>");
  }
  // The second segment is a room type for join/joinOrCreate/create, a room id for joinById/reconnect.
  const [, method, name] = match as unknown as [string, string, string];
  const body = await readJson(req);
  const auth: AuthContext = { token, headers: new Headers(req.headers as Record<string, string>), ip: options.clientAddress(req), req } as AuthContext;

  try {
    switch (method) {
      case "create":
        throw new GateError(403, "ROOM_CREATION_FORBIDDEN", "Rooms are made by the server: join a world (join, joinOrCreate or joinById)");
      case "join":
      case "joinOrCreate":
        if (!matchMaker.getRoomClass(name)) throw new GateError(404, "ROOM_TYPE_NOT_FOUND", `No room type "${name}"`);
        if (!JOINABLE_BY_NAME.has(name)) throw new GateError(403, "JOIN_BY_ID_ONLY", `A "${name}" room is joined by id, with the seat the server reserved`);
        // joinOrCreate only joins: no client request makes a room. A world is the one named by the
        // `world` option, or the least full one, wherever in the cluster it runs.
        return await reserveWorldSeat(chooseWorld(await options.worlds(), worldIdOption(body.world)), body, auth);
      case "joinById":
        return await matchMaker.joinById(name, body, auth);
      case "reconnect":
        return await matchMaker.reconnect(name, body);
      default:
        throw new GateError(404, "NOT_FOUND", `Unknown matchmaking method "${method}"`);
    }
  } catch (err) {
    throw asGateError(err);
  }
}

/** Colyseus's matchmaking errors as HTTP answers (its own codes are not HTTP statuses). */
function asGateError(err: unknown): unknown {
  if (err instanceof WorldChoiceError) return new GateError(err.status, err.code, err.message);
  if (err instanceof GateError || !(err instanceof Error)) return err;
  const code = (err as { code?: unknown }).code;
  if (typeof code !== "number") return err;
  switch (code) {
    case ErrorCode.MATCHMAKE_NO_HANDLER:
      return new GateError(404, "ROOM_TYPE_NOT_FOUND", err.message);
    case ErrorCode.MATCHMAKE_INVALID_CRITERIA:
      return new GateError(404, "NO_ROOM", "No world is open to join right now");
    case ErrorCode.MATCHMAKE_INVALID_ROOM_ID:
      return new GateError(404, "ROOM_NOT_FOUND", err.message);
    case ErrorCode.MATCHMAKE_EXPIRED:
      return new GateError(410, "SEAT_EXPIRED", err.message);
    case ErrorCode.AUTH_FAILED:
      return new GateError(401, "UNAUTHORIZED", err.message);
    case ErrorCode.APPLICATION_ERROR:
      return new GateError(400, "BAD_REQUEST", err.message);
  }
  // A room's own refusal (onAuth / onCreate): ServerError with an HTTP status.
  if (err instanceof ServerError && code >= 400 && code < 600) return new GateError(code, codeForStatus(code), err.message);
  return err;
}

function codeForStatus(status: number): string {
  return (
    (
      { 400: "BAD_REQUEST", 401: "UNAUTHORIZED", 403: "FORBIDDEN", 404: "NOT_FOUND", 409: "CONFLICT", 429: "RATE_LIMITED", 503: "UNAVAILABLE" } as Record<
        number,
        string
      >
    )[status] ?? "ERROR"
  );
}

function bearerOf(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  try {
    return bearerToken(header);
  } catch {
    return undefined;
  }
}

function accountOf(token: string | undefined, secret: string): string | undefined {
  if (!token) return undefined;
  try {
    return verifyToken(token, secret).sub;
  } catch {
    return undefined; // counted by address; the room's onAuth answers 401
  }
}

async function consume(limiter: RateLimiterAbstract, keys: string[], req: IncomingMessage) {
  for (const key of keys) {
    try {
      await limiter.consume(key);
    } catch (r) {
      if (!(r instanceof RateLimiterRes)) throw r;
      req.resume();
      const retry = Math.max(1, Math.ceil(r.msBeforeNext / 1000));
      throw new GateError(429, "RATE_LIMITED", `Too many requests: at most ${limiter.points} per ${limiter.duration} s; try again in ${retry} s`, {
        "Retry-After": String(retry),
      });
    }
  }
}

/** The body as a JSON object, read up to the limit (the rest is discarded so the client gets the answer). */
function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MATCHMAKE_BODY_LIMIT) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on("error", () => reject(new GateError(400, "BAD_REQUEST", "The request body could not be read")));
    req.on("end", () => {
      if (tooLarge) return reject(new GateError(413, "PAYLOAD_TOO_LARGE", `Join options are limited to ${MATCHMAKE_BODY_LIMIT} bytes`));
      const encoding = req.headers["content-encoding"];
      if (encoding && encoding !== "identity") return reject(new GateError(400, "BAD_REQUEST", `Unsupported Content-Encoding "${encoding}"`));
      const raw = Buffer.concat(chunks).toString("utf8");
      if (raw.trim() === "") return resolve({});
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        return reject(new GateError(400, "BAD_JSON", "The request body is not valid JSON"));
      }
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
        return reject(new GateError(400, "INVALID_PAYLOAD", "Join options must be a JSON object"));
      const problem = bodyTextProblem(parsed);
      if (problem) return reject(new GateError(400, "INVALID_PAYLOAD", `Join options: ${problem}`));
      resolve(parsed as Record<string, unknown>);
    });
  });
}

function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>) {
  if (res.headersSent) return void res.end();
  const json = JSON.stringify(body);
  res.writeHead(status, { ...headers, "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(json)) });
  res.end(json);
}
