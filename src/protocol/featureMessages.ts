import { z } from "zod";

/**
 * The client messages of the feature folders (src/features/<feature>/), by event name, with the
 * payload each must have: part of the world room's messages (ClientMessages), answered as they
 * are (a refusal with `error`), handled by the feature that names them (docs/PROTOCOL.md §3).
 */
export const FeatureMessages = {
  /** Cast the home teleport: after its cast time the player stands at the world's spawn (src/features/homeTeleport/). */
  "player:homeTeleport": z.object({}).strict(),
  /** Cross an agility obstacle (a station of type agility_obstacle): walk onto its start, cross it (src/features/agility/). */
  "agility:cross": z.object({ obstacleId: z.string().min(1).max(128) }).strict(),
} as const;

export type FeatureMessageType = keyof typeof FeatureMessages;
export type FeatureMessage<T extends FeatureMessageType> = z.infer<(typeof FeatureMessages)[T]>;
