import assert from "node:assert/strict";
import { matchMaker } from "@colyseus/core";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { emptyInventory } from "../../src/game/inventory.js";
import type { StationEntity } from "../../src/game/world/entities.js";
import type { Rng, Tile } from "../../src/game/types.js";
import type { WorldPlayer } from "./worldClient.js";

/** The server-side room a client is in (for setting up a scene and checking the world's truth). */
export function worldRoomOf(player: WorldPlayer): WorldRoom {
  return matchMaker.getLocalRoomById(player.room.roomId) as unknown as WorldRoom;
}

/** Replace the world's randomness (a fixed value or a repeating script). */
export function setRng(room: WorldRoom, values: number | number[]): void {
  const list = Array.isArray(values) ? values : [values];
  let i = 0;
  const rng: Rng = () => list[i++ % list.length];
  (room.world as unknown as { rng: Rng }).rng = rng;
}

/** Put a player on a tile at once (scene setup), as the admin teleport does. */
export function place(room: WorldRoom, playerId: string, tile: Tile) {
  const p = room.world.players.get(playerId)!;
  p.tile = { ...tile };
  p.path = [];
  p.action = null;
  room.world.place("player", p.id, p.tile);
  room.world.touchPlayer(p, true);
}

/** Leave and wait until the room has saved the character and closed its session. */
export async function leaveAndSettle(player: WorldPlayer): Promise<void> {
  const room = worldRoomOf(player);
  await player.leave();
  while (room.sessions.has(player.id)) await new Promise((r) => setImmediate(r));
  await room.settled();
}

/** A walkable tile exactly `distance` tiles (Chebyshev) from `tile`, straight or diagonal. */
export function tileAway(room: WorldRoom, tile: Tile, distance: number): Tile {
  for (const [dx, dz] of [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
    [1, 1],
    [-1, -1],
    [1, -1],
    [-1, 1],
  ]) {
    const t = { x: tile.x + dx * distance, z: tile.z + dz * distance };
    if (room.world.map.inBounds(t.x, t.z) && !room.world.map.isBlocked(t.x, t.z)) return t;
  }
  throw new Error(`no free tile ${distance} from ${tile.x},${tile.z}`);
}

/** A walkable tile within `reach` tiles of `from` (each axis), drawn from `rnd`. */
export function walkableNear(room: WorldRoom, from: Tile, reach: number, rnd: () => number): Tile {
  for (;;) {
    const t = { x: from.x + Math.round((rnd() * 2 - 1) * reach), z: from.z + Math.round((rnd() * 2 - 1) * reach) };
    if (room.world.map.inBounds(t.x, t.z) && !room.world.map.isBlocked(t.x, t.z)) return t;
  }
}

/** A walkable tile next to `tile`. */
export function besideOf(room: WorldRoom, tile: Tile): Tile {
  return tileAway(room, tile, 1);
}

/** Resolve after `n` more ticks of the room (waits for the ticks, not for time). */
export function ticks(room: WorldRoom, n: number): Promise<void> {
  const target = room.world.tick + n;
  return new Promise((resolve) => {
    const check = () => (room.world.tick >= target ? resolve() : setTimeout(check, 20));
    check();
  });
}

/** The one world room of the test server (for clients that are not SDK players, such as /ws sockets). */
export async function theWorld(): Promise<WorldRoom> {
  const [listing] = await matchMaker.query({ name: "world" });
  if (!listing) throw new Error("no world room");
  return matchMaker.getLocalRoomById(listing.roomId) as unknown as WorldRoom;
}

/** A pack of exactly these stacks (scene setup). */
export function givePack(room: WorldRoom, playerId: string, stacks: Array<[string, number]>) {
  const e = room.world.players.get(playerId)!;
  const inv = emptyInventory();
  stacks.forEach(([itemId, quantity], i) => (inv[i] = { itemId, quantity }));
  e.inventory = inv;
  room.world.touchPlayer(e);
}

/** The first station of a type (and rune type) the world places. */
export function stationOf(room: WorldRoom, type: string, runeType?: string): StationEntity {
  const s = [...room.world.stations.values()].find((x) => x.type === type && (runeType === undefined || x.runeType === runeType));
  assert.ok(s, `no ${type}${runeType ? ` of ${runeType}` : ""} in the world`);
  return s;
}

/** How many of an item a player:sync's inventory holds. */
export const countInSync = (sync: { inventory: Array<{ itemId: string; quantity: number }> }, itemId: string) =>
  sync.inventory.filter((s) => s.itemId === itemId).reduce((n, s) => n + s.quantity, 0);
