import { matchMaker, ServerError } from "@colyseus/core";
import { wireMeter } from "../../rooms/wireMeter.js";
import type { WebSocket } from "ws";
import type { ServerContext } from "../context.js";
import { CLOSE_CODES, type ErrorCode, type ServerCloseCode, type ServerMessage, type UpdatesForm } from "../protocol/index.js";
import { joinWorldInMemory } from "../../rooms/worldJoin.js";
import { chooseWorld, WorldChoiceError, type WorldEntry } from "../worldSpecs.js";
import { WsRoomClient } from "./roomClients.js";
import type { ResumableRoom } from "./seats.js";

/** How a /ws join refused for its world closes the socket. */
const WORLD_CLOSES: Record<WorldChoiceError["code"], ServerCloseCode> = {
  INVALID_WORLD: CLOSE_CODES.INVALID_REQUEST,
  WORLD_NOT_FOUND: CLOSE_CODES.NOT_FOUND,
  WORLD_FULL: CLOSE_CODES.WORLD_FULL,
  WORLD_UNAVAILABLE: CLOSE_CODES.WORLD_UNAVAILABLE,
};

/** Join failures (the room's ServerError codes) as /ws error codes and close codes. */
const JOIN_FAILURES: Record<number, { code: ErrorCode; close: ServerCloseCode }> = {
  400: { code: "INVALID_PAYLOAD", close: CLOSE_CODES.INVALID_REQUEST },
  401: { code: "UNAUTHORIZED", close: CLOSE_CODES.UNAUTHORIZED },
  403: { code: "FORBIDDEN", close: CLOSE_CODES.FORBIDDEN },
  404: { code: "NOT_FOUND", close: CLOSE_CODES.NOT_FOUND },
  [CLOSE_CODES.BANNED]: { code: "BANNED", close: CLOSE_CODES.BANNED },
  [CLOSE_CODES.RESTART]: { code: "RESTARTING", close: CLOSE_CODES.RESTART },
  // The world is moving to another process (a drain): a moment later it runs there.
  503: { code: "WORLD_UNAVAILABLE", close: CLOSE_CODES.WORLD_UNAVAILABLE },
};

/** What a /ws socket asks to enter the world with. */
export interface EntryRequest {
  token: string;
  characterId: string | undefined;
  /** The world asked for (none: the least full). */
  worldId: number | undefined;
  updates: UpdatesForm;
  /** What the socket was shown already (an identity switch: kept on the client's screen until the new view's first update). */
  carried: Set<string> | undefined;
  /** The client's address (its session records it; a ban by address may refuse it). */
  address: string;
}

/** In the world on this process, or told where it runs. */
export type Entry = { client: WsRoomClient; room: ResumableRoom } | { redirect: ServerMessage<"world:redirect"> };

/**
 * A /ws player's way into its world: the world is chosen (chooseWorld), and joined in this process
 * with a room client on `socket`; a world running on another process is a `world:redirect` to the
 * URL of that process's /ws with this socket's query (the client connects there with its token).
 * A refusal throws: `joinRefusal` says how the socket is told and closed.
 */
export async function enterWorld(ctx: ServerContext, socket: WebSocket, r: EntryRequest): Promise<Entry> {
  const w = chooseWorld(await ctx.world.worlds(), r.worldId);
  if (w.processId !== matchMaker.processId) return { redirect: redirectTo(w, ctx.config.publicWsUrl, r.updates) };
  const { client, room } = await joinWorldInMemory(
    (sessionId) => new WsRoomClient(sessionId, socket, r.carried),
    r.token,
    w,
    { characterId: r.characterId, worldUpdates: r.updates === "changes" ? "changes" : true, clientType: "ws" },
    r.address,
  );
  client.meter = wireMeter(w.id, "ws");
  return { client, room: room as unknown as ResumableRoom };
}

function redirectTo(w: WorldEntry, publicWsUrl: string, updates: UpdatesForm): ServerMessage<"world:redirect"> {
  const scheme = publicWsUrl.startsWith("wss:") ? "wss" : "ws";
  const query = new URLSearchParams({ world: String(w.id), ...(updates === "changes" ? { updates: "changes" } : {}) });
  const url = `${scheme}://${w.publicAddress}/ws?${query}`;
  return { world: w.id, url, message: `World ${w.id} runs on another server process: connect to ${url}` };
}

/** A join's failure as the /ws error and close code it is refused with; undefined: an internal failure. */
export function joinRefusal(err: unknown): { code: ErrorCode; message: string; close: ServerCloseCode } | undefined {
  if (err instanceof WorldChoiceError)
    return { code: err.code === "INVALID_WORLD" ? "INVALID_PAYLOAD" : err.code, message: err.message, close: WORLD_CLOSES[err.code] };
  const failure = JOIN_FAILURES[err instanceof ServerError ? err.code : 0];
  return failure && { ...failure, message: (err as Error).message };
}
