import { z } from "zod";

/**
 * The feature folders' part of the wire (src/features/<feature>/): their client messages, error
 * codes and notice codes, kept together so a feature's contract is written in one place. Their
 * client messages, by event name, with the payload each must have: part of the world room's
 * messages (ClientMessages), answered as they are (a refusal with `error`), handled by the feature
 * that names them (docs/PROTOCOL.md §3).
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
  /** Travel with a carter (an npc whose services name travel): walk up to it, pay its fare, arrive at its destination (src/features/travel/). */
  "travel:ride": z.object({ npcId: z.string().min(1).max(128) }).strict(),
} as const;

export type FeatureMessageType = keyof typeof FeatureMessages;
export type FeatureMessage<T extends FeatureMessageType> = z.infer<(typeof FeatureMessages)[T]>;

/**
 * The features' player actions as clients show them: `player:sync`'s `action` and `world:update`'s
 * `action` name the feature (a PlayerActionType), and the web client draws its figure in the pose
 * given here (client/src/render/poses.ts: stand, reach, work, pray, …).
 */
export const FEATURE_ACTIONS = {
  agility: "stand",
  thieving: "reach",
  travel: "stand",
} as const satisfies Record<string, string>;

/** A feature's entry in the web client's right-click menu: on an npc whose services name `service`, or on a station of `stationType`. */
export type FeatureMenu = ({ on: "npc"; service: string } | { on: "station"; stationType: string }) & {
  /** The menu's word, before the target's name ("Pickpocket Villager"). */
  verb: string;
  /** The message it sends, with the target's id under `idKey`. */
  message: FeatureMessageType;
  idKey: string;
};

/** The features' menu entries, in the order the menu lists them after the engine's own. */
export const FEATURE_MENUS: readonly FeatureMenu[] = [
  { on: "npc", service: "pickpocket", verb: "Pickpocket", message: "thieving:pickpocket", idKey: "npcId" },
  { on: "station", stationType: "agility_obstacle", verb: "Cross", message: "agility:cross", idKey: "obstacleId" },
  { on: "station", stationType: "thieving_stall", verb: "Steal-from", message: "thieving:steal", idKey: "stallId" },
  { on: "npc", service: "travel", verb: "Travel-with", message: "travel:ride", idKey: "npcId" },
];

/** The features' error codes (`error`, §6) and when each is given: part of ERROR_CODES (codes.ts). */
export const FEATURE_ERROR_CODES = {
  IN_COMBAT: "what a player who gave or took a blow in the last 17 ticks (10 s) may not do: a home teleport, a healer's care, a ride",
  TELEPORT_COOLDOWN: "player:homeTeleport before the cooldown since the last one is over (the message says how long is left)",
  NO_TELEPORT_HERE: "player:homeTeleport from a duel's arena or a dangerous PvP area",
  NOT_IN_PVP_AREA: "an attack on a player (not your duel opponent) while you or they stand outside every PvP area",
  SAFE_ZONE: "an attack on a player while you or they stand in a safe zone",
  LEVEL_BRACKET: "an attack on a player whose combat level is too far from yours for the PvP area (the message gives the bracket)",
  STUNNED:
    "any order (a move, an action, making, casting, a feature's message) while stunned after a failed pickpocket (the message says how many seconds are left)",
  STALL_EMPTY: "thieving:steal at a stall emptied by a theft and not yet restocked (the message says when it will be)",
  NO_FARE: "travel:ride with fewer coins in the pack than the fare (coins offered in a trade do not count; the message gives the fare)",
} as const;

/** The features' `notice` codes (§4): part of NOTICE_CODES (codes.ts). */
export const FEATURE_NOTICE_CODES = [
  "HEALED",
  "HOME_TELEPORT_STARTED",
  "HOME_TELEPORTED",
  "HOME_TELEPORT_INTERRUPTED",
  "SKULLED",
  "SKULL_GONE",
  "PVP_KILL",
  "OBSTACLE_FAILED",
  "LAP_COMPLETE",
  "OUT_OF_RUN_ENERGY",
  "STOLEN",
  "PICKPOCKET_FAILED",
  "SCOREBOARD",
  "TRAVELLED",
] as const;
