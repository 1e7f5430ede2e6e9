import { GameError } from "../../game/types.js";
import { HttpError } from "../errors.js";

/** The HTTP status of each refusal of a staff act (every other GameError is 400). */
const STATUS: Record<string, number> = {
  FORBIDDEN: 403,
  TARGET_IS_STAFF: 403,
  UNKNOWN_PLAYER: 404,
  REPORT_NOT_FOUND: 404,
  REPORT_CLOSED: 409,
  NOT_SANCTIONED: 409,
  SELF_REPORT: 400,
  RATE_LIMITED: 429,
  AUDIT_UNAVAILABLE: 503,
  NO_CLUSTER: 409,
  NO_OTHER_PROCESS: 409,
  UNKNOWN_PROCESS: 404,
};

/** Run a staff act; a GameError becomes its documented HTTP answer. */
export async function staffAct<T>(act: () => Promise<T>): Promise<T> {
  try {
    return await act();
  } catch (err) {
    if (err instanceof GameError) throw new HttpError(STATUS[err.code] ?? 400, err.code, err.message);
    throw err;
  }
}
