import type { z } from "zod";
import { GameError } from "../src/game/types.js";
import { describeZodError } from "../src/protocol/index.js";

/** How a trade or duel desk answers a message of a player's (rooms/tradeDesk.ts, src/features/duel/duelDesk.ts). */
export interface DeskReplies {
  /** The payload's key naming the trade or duel (`tradeId`, `duelId`). */
  idKey: string;
  /** The trade or duel a refusal of the rules names, if it names one. */
  idOf(err: GameError): string | undefined;
  /** Refuse the message: its error, naming the trade or duel where one is known. */
  refuse(code: string, message: string, id: string | undefined): void;
  /** Send what the desk holds for its players. */
  flush(): void;
}

/**
 * A trade or duel message at its desk: its payload checked by its schema, then run by `run`. A bad
 * payload (INVALID_PAYLOAD) or a refusal of the rules (a GameError) is answered through `refuse`,
 * naming the trade or duel the error names, else the one the payload names; any other error is
 * thrown. After a run, refused or not, the desk's messages go out.
 */
export function receiveAtDesk(type: string, payload: unknown, schema: z.ZodType, desk: DeskReplies, run: (message: unknown) => void): void {
  // As for every room message (runCommand): absent counts as {}, null is a wrong type.
  const parsed = schema.safeParse(payload === undefined ? {} : payload);
  const named = (payload as Record<string, unknown> | null | undefined)?.[desk.idKey];
  const id = typeof named === "string" ? named : undefined;
  if (!parsed.success) return desk.refuse("INVALID_PAYLOAD", `${type}: ${describeZodError(parsed.error)}`, id);
  try {
    run(parsed.data);
  } catch (err) {
    if (!(err instanceof GameError)) throw err;
    desk.refuse(err.code, err.message, desk.idOf(err) ?? id);
  } finally {
    desk.flush();
  }
}
