import type { IncomingMessage } from "node:http";
import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { clientAddressOf } from "../http/rateLimit.js";
import type { WebSocket } from "ws";
import { AddressBannedError, createGuest } from "../auth/guest.js";
import { signToken, TokenError, verifyToken } from "../auth/tokens.js";
import { matchMaker } from "@colyseus/core";
import { MoveTickets } from "../../rooms/cluster/moveTickets.js";
import type { ServerContext } from "../context.js";
import { frame, frameId, readFrame, readQuery, ROOM_EVENTS, WS_LIMITS } from "./protocol.js";
import { sendFrame } from "./corkedSend.js";
import { FrameBudget } from "./frameBudget.js";
import { WsSeat, type SeatHolder, type WsSeats } from "./seats.js";
import { enterWorld, joinRefusal } from "./worldEntry.js";
import {
  AuthenticateData,
  CLOSE_CODES,
  describeZodError,
  ResumeData,
  TRADE_ROOM_MESSAGES,
  type ErrorCode,
  type ServerCloseCode,
  type ServerMessage,
  type ServerMessageType,
  type UpdatesForm,
} from "../protocol/index.js";

/** Room events kept while a player joins (sent right after opening the socket). */
const MAX_PENDING = 32;
/** Close codes by which a client leaves the world (its own close, normal or without a code); any other close is a drop. */
const LEAVE_CODES: ReadonlySet<number> = new Set([1000, 1005]);

/**
 * One /ws socket: authentication (token in the URL, an `authenticate` frame, or a guest identity in
 * anonymous mode), limits, and translation between JSON frames and the world room's messages.
 *
 * Authenticate first: a socket without a token is made a guest (anonymous mode) only when its first
 * frame is not `authenticate`, or when no frame came within the guest window; with an identity
 * provider it must authenticate within its window. A token login never counts as an attempt.
 *
 * The player's place in the world is its seat (src/ws/seats.ts): a socket that drops (closed by
 * anything but the client's own 1000 or code-less close, or found dead by the heartbeat) parks it
 * for the grace period, and a `resume` with its token puts it on another socket.
 */
export class WsConnection implements SeatHolder {
  /** The player this socket plays, once joined or resumed. */
  private seat: WsSeat | undefined;
  /** The server closed this socket (a refusal, the seat resumed elsewhere): its close is no drop. */
  private closedByServer = false;
  private joining = false;
  private authTimer: NodeJS.Timeout | undefined;
  private readonly budget = new FrameBudget();
  /** Settles when the latest join (URL token, guest or authenticate frame) has finished. */
  private joinDone: Promise<void> = Promise.resolve();
  /** Room events that arrived while the player was still joining: run once it is in. */
  private pending: Array<{ type: string; data: unknown; id?: string }> = [];
  alive = true;
  private readonly address: string;
  /** Anonymous mode, no token: nothing decided yet (the first frame, or the window's end, decides). */
  private awaitingFirstFrame = false;
  /** The characterId of the URL, for a guest made later. */
  private readonly urlCharacterId: string | undefined;
  /** The form of world:update this socket takes (`?updates=` or `authenticate`'s `updates`; PROTOCOL.md §4). */
  private updates: UpdatesForm = "whole";
  /** The world this socket asked for (`?world=` or `authenticate`'s `world`); none: the least full. */
  private worldId: number | undefined;
  /** The resume tokens of sessions whose world moved, in the cluster's presence. */
  private readonly tickets = new MoveTickets(matchMaker.presence);

  constructor(
    private readonly socket: WebSocket,
    req: IncomingMessage,
    private readonly ctx: ServerContext,
    private readonly seats: WsSeats,
    authenticateWithinMs: number = WS_LIMITS.authenticateWithinMs,
    /** Guest identities count against the address's authentication attempts (as over HTTP). */
    private readonly guestLimiter?: RateLimiterAbstract,
  ) {
    this.address = clientAddressOf(ctx.config)(req);
    const query = readQuery(new URL(req.url ?? "/ws", "ws://server"));
    this.urlCharacterId = "problem" in query ? undefined : query.characterId;
    socket.on("message", (data, isBinary) =>
      this.onFrame(data as Buffer, isBinary).catch((err) => {
        this.ctx.logger.error({ err }, "/ws frame handling failed");
        this.error("INTERNAL", "Something went wrong");
      }),
    );
    socket.on("close", (code) => this.onClose(code));
    socket.on("pong", () => (this.alive = true));
    socket.on("error", () => {});

    if ("problem" in query) {
      this.refuse("INVALID_PAYLOAD", query.problem, CLOSE_CODES.INVALID_REQUEST);
      return;
    }
    const { token, characterId } = query;
    this.worldId = query.worldId;
    if (query.updates) this.updates = query.updates;
    if (token) this.joinDone = this.join(token, characterId, undefined);
    else if (!ctx.config.idpAppId) {
      // Wait for the first frame: `authenticate` makes no guest; anything else (or silence) does.
      this.awaitingFirstFrame = true;
      this.authTimer = setTimeout(() => this.startGuest(), ctx.config.ws.guestAfterMs);
    } else {
      this.authTimer = setTimeout(
        () => this.refuse("UNAUTHORIZED", `Send authenticate with a token within ${Math.round(authenticateWithinMs / 1000)} seconds`),
        authenticateWithinMs,
      );
    }
  }

  /** A frame of the adapter's own, its payload checked against ServerMessages. */
  private send<K extends ServerMessageType>(type: K, data: ServerMessage<K>, id?: string) {
    if (this.socket.readyState === this.socket.OPEN) sendFrame(this.socket, frame(type, data, id));
  }

  private error(code: ErrorCode, message: string, id?: string) {
    this.send("error", { code, message }, id);
  }

  private refuse(code: ErrorCode, message: string, close: ServerCloseCode = CLOSE_CODES.UNAUTHORIZED, id?: string) {
    this.error(code, message, id);
    this.closeByServer(close, code);
  }

  /** The server closes this socket: its close is no drop. */
  private closeByServer(code: ServerCloseCode, reason: string) {
    this.closedByServer = true;
    if (this.socket.readyState === this.socket.OPEN) this.socket.close(code, reason);
  }

  /** Anonymous mode: the first frame was not `authenticate`, or none came in time: make the guest now. */
  private startGuest() {
    if (!this.awaitingFirstFrame) return;
    this.awaitingFirstFrame = false;
    clearTimeout(this.authTimer);
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.joinDone = this.joinAsGuest(this.urlCharacterId);
  }

  private async joinAsGuest(characterId: string | undefined) {
    // Joining starts now: room events sent meanwhile wait for the player.
    this.joining = true;
    if (this.guestLimiter) {
      try {
        await this.guestLimiter.consume(`ip:${this.address}`);
      } catch (res) {
        this.joining = false;
        this.pending = [];
        if (!(res instanceof RateLimiterRes)) throw res;
        const retry = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
        return this.refuse(
          "RATE_LIMITED",
          `Too many new guest identities from this address: try again in ${retry} s, or connect with a token`,
          CLOSE_CODES.FLOOD,
        );
      }
    }
    let token: string;
    try {
      token = (await createGuest(this.ctx.db.sql, this.ctx.config.jwtSecret, this.address)).token;
    } catch (err) {
      this.joining = false;
      this.pending = [];
      if (err instanceof AddressBannedError) return this.refuse("ADDRESS_BANNED", err.message, CLOSE_CODES.BANNED);
      this.ctx.logger.error({ err }, "/ws guest identity failed");
      return this.refuse("INTERNAL", "Could not create a guest identity", CLOSE_CODES.INTERNAL);
    }
    await this.join(token, characterId, undefined);
  }

  /**
   * Verify the token, join the world room as this socket's player, then say `authenticated`.
   * `moved`: the resume token of a session whose world moved (rooms/cluster/moveTickets.ts), taken
   * for this join: forgotten once it succeeds, good again when it is redirected or refused (while
   * the world is not running yet the socket stays open for the client to `resume` again).
   */
  private async join(token: string, characterId: string | undefined, replyId: string | undefined, moved?: string) {
    clearTimeout(this.authTimer);
    let accountId: string;
    try {
      accountId = verifyToken(token, this.ctx.config.jwtSecret).sub;
    } catch (err) {
      if (err instanceof TokenError && err.code === "TOKEN_READ_ONLY") return this.refuse(err.code, err.message, CLOSE_CODES.FORBIDDEN, replyId);
      const message = err instanceof TokenError ? err.message : "The token is invalid";
      return this.refuse("UNAUTHORIZED", message, CLOSE_CODES.UNAUTHORIZED, replyId);
    }
    // A new identity replaces the current one: the old player leaves the world first. What the
    // socket was shown stays on the client's screen until the new view's first update removes it.
    const carried = this.seat?.client.shown;
    this.seat?.detach();
    this.seat = undefined;
    this.joining = true;
    try {
      const entry = await enterWorld(this.ctx, this.socket, {
        token,
        characterId,
        worldId: this.worldId,
        updates: this.updates,
        carried,
        address: this.address,
      });
      if ("redirect" in entry) {
        // The moved session's token is good again, for the process that runs the world.
        if (moved) await this.tickets.release(moved).catch(() => {});
        return this.redirect(entry.redirect, replyId);
      }
      const { client, room } = entry;
      if (this.socket.readyState !== this.socket.OPEN) {
        client.leave(CLOSE_CODES.NORMAL);
        if (moved) await this.tickets.release(moved).catch(() => {});
        return;
      }
      if (moved) await this.tickets.forget(moved).catch(() => {});
      const playerId = client.firstSync?.id ?? "";
      const seat = new WsSeat(client, room, token, accountId, playerId, this.ctx.logger);
      this.seats.add(seat, this);
      this.seat = seat;
      this.send("authenticated", { accountId, characterId: playerId, playerId, resumeToken: this.seats.issue(seat), resumed: moved !== undefined }, replyId);
      client.release();
      for (const f of this.pending.splice(0)) this.dispatch(seat, f.type, f.data, f.id);
    } catch (err) {
      if (moved) await this.tickets.release(moved).catch(() => {});
      const refusal = joinRefusal(err);
      if (moved && refusal?.code === "WORLD_UNAVAILABLE") return this.error(refusal.code, `${refusal.message} (resume again)`, replyId);
      if (refusal) return this.refuse(refusal.code, refusal.message, refusal.close, replyId);
      this.ctx.logger.error({ err }, "/ws join failed");
      this.refuse("INTERNAL", "Could not join the world", CLOSE_CODES.INTERNAL, replyId);
    } finally {
      this.joining = false;
      for (const f of this.pending.splice(0)) this.error("NOT_AUTHENTICATED", "Not in the world", f.id);
    }
  }

  /** The world runs on another process: say where (`world:redirect`) and close with WORLD_ELSEWHERE. */
  private redirect(to: ServerMessage<"world:redirect">, replyId: string | undefined) {
    this.send("world:redirect", to, replyId);
    this.closeByServer(CLOSE_CODES.WORLD_ELSEWHERE, "WORLD_ELSEWHERE");
  }

  /**
   * Take back the seat of `resumeToken` (a dropped socket's, or one still open elsewhere, which is
   * then closed): `authenticated` with a new token, then the player's private state, a full view
   * and where its trades stand, as at a join. A token that works for no seat changes nothing.
   */
  private async resume(resumeToken: string, replyId: string | undefined, guestWindow: boolean) {
    if (this.socket.readyState !== this.socket.OPEN) return;
    const seat = this.seats.take(resumeToken, this);
    // A session whose world moved to another process (a drain): its token works on any process of the cluster.
    const moved = seat ? undefined : await this.tickets.peek(resumeToken).catch(() => undefined);
    if (moved && (await this.tickets.use(resumeToken).catch(() => false))) {
      clearTimeout(this.authTimer);
      this.worldId = moved.world;
      const token = signToken({ sub: moved.accountId, ...moved.claims }, this.ctx.config.jwtSecret);
      return this.join(token, moved.characterId, replyId, resumeToken);
    }
    if (seat) {
      // What the room sends is held until `authenticated` has gone; it refuses a session that is over (being taken over).
      seat.client.plug(this.socket, this.shownWith(seat));
      if (seat.room.resendState(seat.client.sessionId)) {
        clearTimeout(this.authTimer);
        // This socket's own player, if another, leaves the world (as in an identity switch).
        if (this.seat !== seat) this.seat?.detach();
        this.seat = seat;
        const { accountId, playerId } = seat;
        this.send("authenticated", { accountId, characterId: playerId, playerId, resumeToken: this.seats.issue(seat), resumed: true }, replyId);
        seat.client.release();
        return;
      }
      // A session that is over (being taken over): its player leaves, as it was about to.
      seat.client.unplug();
      seat.leave();
    }
    this.error("RESUME_FAILED", "That resume token is unknown, already used, or its session has ended: authenticate instead", replyId);
    // Nothing changed: a socket still without a player gets its guest window again (anonymous mode).
    if (guestWindow && !this.seat) {
      this.awaitingFirstFrame = true;
      this.authTimer = setTimeout(() => this.startGuest(), this.ctx.config.ws.guestAfterMs);
    }
  }

  /** What the client of a resumed seat may still show: what its socket and this one were shown. */
  private shownWith(seat: WsSeat): Set<string> {
    return new Set([...seat.client.shown, ...(this.seat && this.seat !== seat ? this.seat.client.shown : [])]);
  }

  /** Another socket resumed this one's seat: the player goes on there, and this socket is closed. */
  seatTaken() {
    this.seat = undefined;
    this.send("session:replaced", { message: "Your session was resumed on another connection" });
    this.closeByServer(CLOSE_CODES.REPLACED, "resumed elsewhere");
  }

  private async onFrame(data: Buffer, isBinary: boolean) {
    // Per-connection rate limit: over it the frame is dropped; a sustained flood closes the socket.
    if (!this.budget.take()) {
      if (this.budget.dropped === WS_LIMITS.floodDropsPerSecond) return this.refuse("FLOOD", "Too many messages: disconnected", CLOSE_CODES.FLOOD);
      if (this.socket.readyState === this.socket.OPEN && this.budget.dropped < WS_LIMITS.floodDropsPerSecond) {
        this.error("RATE_LIMITED", `At most ${WS_LIMITS.messagesPerSecond} messages per second: this frame was dropped`, frameId(data, isBinary));
      }
      return;
    }
    const read = readFrame(data, isBinary);
    if ("error" in read) {
      if (read.type === "authenticate") return this.refuseAuthenticate(read.error.message, read.error.id);
      this.startGuest();
      return this.error(read.error.code, read.error.message, read.error.id);
    }
    const { type, data: payload, id } = read.envelope;
    this.seat?.client.meter?.in(type, data.byteLength);

    if (type === "authenticate") {
      const auth = AuthenticateData.safeParse(payload);
      if (!auth.success) {
        return this.refuseAuthenticate(
          `authenticate: ${describeZodError(auth.error)}: expected {token, characterId?, updates?: "whole" | "changes", world?: <world id>}`,
          id,
        );
      }
      if (auth.data.updates) this.updates = auth.data.updates;
      if (auth.data.world !== undefined) this.worldId = auth.data.world;
      // Authenticate first: no guest is made for this socket.
      this.awaitingFirstFrame = false;
      // After any join in progress (a guest's, in anonymous mode): this identity then replaces it.
      const previous = this.joinDone;
      this.joinDone = previous.then(() => this.join(auth.data.token, auth.data.characterId, id));
      return this.joinDone;
    }
    if (type === "resume") {
      const resume = ResumeData.safeParse(payload);
      if (!resume.success) return this.error("INVALID_PAYLOAD", "resume: {resumeToken}", id);
      // Like authenticate, it makes no guest (and if it fails, the guest window starts again).
      const guestWindow = this.awaitingFirstFrame;
      this.awaitingFirstFrame = false;
      if (guestWindow) clearTimeout(this.authTimer);
      this.joinDone = this.joinDone.then(() => this.resume(resume.data.resumeToken, id, guestWindow));
      return this.joinDone;
    }
    this.startGuest();
    if (type === "ping") {
      if (payload !== undefined && (payload === null || typeof payload !== "object" || Array.isArray(payload))) {
        return this.error("INVALID_PAYLOAD", "ping: data: an object (its content is ignored), or none", id);
      }
      return this.send("pong", { time: Date.now() }, id);
    }
    if (!ROOM_EVENTS.has(type)) return this.error("UNKNOWN_EVENT", `Unknown event ${type}`, id);
    const seat = this.seat;
    if (!seat || seat.gone) {
      if (this.joining && this.pending.length < MAX_PENDING) {
        this.pending.push({ type, data: payload, id });
        return;
      }
      return this.error("NOT_AUTHENTICATED", "Not in the world yet", id);
    }
    this.dispatch(seat, type, payload, id);
  }

  /**
   * A malformed `authenticate`: a socket that plays nobody yet is closed (4000), as a malformed
   * query is, so a refused authenticate never leads to a guest; one that plays a player (or is
   * joining one) keeps it, and nothing changes.
   */
  private refuseAuthenticate(message: string, id: string | undefined) {
    if (!this.seat && !this.joining) return this.refuse("INVALID_PAYLOAD", message, CLOSE_CODES.INVALID_REQUEST, id);
    this.error("INVALID_PAYLOAD", message, id);
  }

  /**
   * Hand a room event to the room, as the SDK would send it; whatever it answers echoes `id`.
   * Moves in the trade the player sits in go to the trade's room; its answers come through the world.
   */
  private dispatch(seat: WsSeat, type: string, payload: unknown, id: string | undefined) {
    const client = seat.client;
    client.replyTo = id;
    try {
      const trade = seat.trade;
      const tradeId = (payload as { tradeId?: unknown } | undefined)?.tradeId;
      // An absent payload counts as {}; any other is handed on as it is, for the event's schema to judge (null is refused there).
      const data = payload === undefined ? {} : payload;
      if (trade && !trade.client.closed && tradeId === trade.tradeId && (TRADE_ROOM_MESSAGES as readonly string[]).includes(type)) {
        trade.client.sendToRoom(type, data);
      } else {
        client.sendToRoom(type, data);
      }
    } catch (err) {
      // Encoding the payload for the room failed (frameProblem keeps this from happening).
      this.ctx.logger.warn({ err: (err as Error).message, type }, "/ws frame could not be handed to the room");
      this.error("INVALID_PAYLOAD", `${type}: the payload cannot be encoded`, id);
    } finally {
      client.replyTo = undefined;
    }
  }

  private onClose(code: number) {
    this.awaitingFirstFrame = false;
    clearTimeout(this.authTimer);
    const seat = this.seat;
    this.seat = undefined;
    if (!seat) return;
    // A leave (the client's own close, or the server's) takes the player out of the world at once
    // (the room saves it); a drop keeps it there for the grace period, to be resumed.
    if (this.closedByServer || LEAVE_CODES.has(code)) seat.leave();
    else this.seats.park(seat);
  }
}
