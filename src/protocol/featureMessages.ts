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
  /** Pick an npc's pocket (an npc whose services name pickpocket): walk up to it, one attempt (src/features/thieving/). */
  "thieving:pickpocket": z.object({ npcId: z.string().min(1).max(128) }).strict(),
  /** Steal from a stall (a station of type thieving_stall): walk up to it, one theft (src/features/thieving/). */
  "thieving:steal": z.object({ stallId: z.string().min(1).max(128) }).strict(),
} as const;

export type FeatureMessageType = keyof typeof FeatureMessages;
export type FeatureMessage<T extends FeatureMessageType> = z.infer<(typeof FeatureMessages)[T]>;
