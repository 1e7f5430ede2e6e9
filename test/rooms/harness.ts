import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { matchMaker } from "@colyseus/core";
import type { Room as SdkRoom } from "@colyseus/sdk";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import appConfig from "../../arena.config.js";
import type { WorldRoom } from "../../rooms/WorldRoom.js";

/**
 * Helpers of the harness suites (test/rooms/harness*.test.ts): the server booted from the default
 * export of arena.config.ts, as `listen()` would run it, and players joined through the harness's
 * SDK. Copy them along with a suite.
 */

export type Harness = ColyseusTestServer<typeof appConfig>;

/**
 * `boot(appConfig, 0)`: the server as `npm start` runs it (configuration from the environment,
 * the shipped world, the embedded database, the agents), on any free port (boot's default is the
 * fixed 2568). The hooks read the environment while boot() runs: here a test one, with a database
 * of its own in a temporary folder, and the shipped world as it is (nothing fetched, even on CI).
 * Resolves with the harness and the world room the server made at start.
 */
export async function bootArena(): Promise<{ colyseus: Harness; world: WorldRoom; close(): Promise<void> }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "arena-harness-"));
  const colyseus = await withEnv({ NODE_ENV: "test", DATA_DIR: dataDir, DATABASE_URL: undefined, USE_LOCAL_POSTGRES: undefined, CI: undefined }, () =>
    boot(appConfig, 0),
  );
  // The server makes the world when it starts (clients only join it): find it, don't create one.
  const [listing] = await matchMaker.query({ name: "world" });
  const world = colyseus.getRoomById<WorldRoom>(listing.roomId);
  return {
    colyseus,
    world,
    close: async () => {
      // Saves the world, closes the database: what a SIGTERM does under listen().
      await colyseus.shutdown();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Run `fn` with these environment variables (undefined: unset), then put the old values back. */
async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  apply(vars);
  try {
    return await fn();
  } finally {
    apply(saved);
  }
}

/** A guest identity from the server's REST API (what a game client gets before it joins). */
export async function guest(colyseus: Harness): Promise<{ token: string; accountId: string }> {
  const res = await colyseus.http.post("/api/auth/guest");
  return res.data as { token: string; accountId: string };
}

export interface Player {
  room: SdkRoom<any>;
  /** The first player:sync: the player's private state (id, name, position, inventory, ...). */
  sync: any;
  /** The character id, also its key in the world state's `players`. */
  id: string;
}

/**
 * A new guest in the world. The harness has one SDK client, which carries one token at a time:
 * players join one after another. The world sends a player its private `player:sync` along with
 * the first state, so the waiter must be in place before that state arrives: this is
 * `colyseus.connectTo(world)` (joinById, then waitForInitialState) with the waiter set in between.
 */
export async function joinAsGuest(colyseus: Harness, world: WorldRoom): Promise<Player> {
  colyseus.sdk.auth.token = (await guest(colyseus)).token;
  const room = await colyseus.sdk.joinById(world.roomId, {});
  const firstSync = room.waitForMessage("player:sync", 15_000);
  quietOtherMessages(room);
  await room.waitForInitialState();
  const sync = await firstSync;
  return { room, sync, id: sync.id };
}

/**
 * The world also sends messages a test does not wait for (world:update, notices, ...): a catch-all
 * handler takes them, or the SDK warns about each. (A waiter for a type takes that type first.)
 */
export function quietOtherMessages(room: SdkRoom<any>) {
  room.onMessage("*", () => {});
}
