import type { Logger } from "pino";
import type { WorldSaver } from "./db/worldSaver.js";
import type { World } from "./game/world/World.js";
import type { ServerMessage, ServerMessageType } from "./protocol/index.js";

/** What a world room hands each feature's desk: its world, its saver (a commit is ordered with every save), and its players. */
export interface WorldDeskOptions {
  world: World;
  saver: WorldSaver;
  logger: Logger;
  send<K extends ServerMessageType>(playerId: string, type: K, data: ServerMessage<K>): void;
  /** Send a player's private state now. */
  syncPlayer(playerId: string): void;
  /** Test hook: milliseconds since the epoch. */
  now?: () => number;
}

/** A feature's desk in one world room: its messages run, its step of the tick, and what a leave and a stop wait for. */
export interface WorldDesk {
  /** One of the feature's messages from a player in the world: validated, run, answered (a refusal as the feature's error message). */
  receive(playerId: string, type: string, payload: unknown): void;
  /** Once a tick, after the world's events are told. */
  tick(): void;
  /** The player is leaving the world: resolves once what the desk commits for it is written. */
  leaving(playerId: string): Promise<void>;
  /** The world was called off (World.callOff): resolves once the commits under way are written. */
  stopped(): Promise<void>;
}

/** The server messages that carry a refusal (`{code, message}`). */
export type RefusalMessageType = { [K in ServerMessageType]: { code: string; message: string } extends ServerMessage<K> ? K : never }[ServerMessageType];

/**
 * A feature with a desk in every world room (src/features/<feature>/): the room routes the
 * feature's client messages to it, runs its tick in a phase of its own and waits for it on a
 * player's leave and on a stop. The room names no such feature; the registry lists them.
 */
export interface DeskFeature {
  readonly name: string;
  /** Its tick phase's name: the `phase` label of the tick histogram, and bench:world's column. */
  readonly phase: string;
  /** Its client messages' types. */
  readonly messages: readonly string[];
  /** The message its refusals are sent as (also "not in the world yet" and "that player is in another world"). */
  readonly errorType: RefusalMessageType;
  /** Its request to another player by `targetPlayerId`: sent to one in another world, it is refused OTHER_WORLD there. */
  readonly request?: string;
  /** Its desk in a world room being made. */
  open(options: WorldDeskOptions): WorldDesk;
}

/** A feature's desk open in a world room, with the feature that says what routes to it and its phase. */
export interface OpenDesk {
  readonly feature: DeskFeature;
  readonly desk: WorldDesk;
}
