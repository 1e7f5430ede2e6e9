import { PlainInterest } from "./plainInterest.js";
import type { InterestKind, InterestParts, WorldInterest } from "./worldInterest.js";
import { WorldSync } from "./worldSync.js";

/** Each interest implementation (worldInterest.ts) by its name: a kind without its entry does not compile. */
const MAKERS: Record<InterestKind, (parts: InterestParts) => WorldInterest> = {
  shared: (parts) => WorldSync.ofRoom(parts),
  plain: (parts) => new PlainInterest(parts),
};

/** The interest implementation of a kind, made for a room. */
export const makeInterest = (kind: InterestKind, parts: InterestParts): WorldInterest => MAKERS[kind](parts);
