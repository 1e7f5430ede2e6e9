import { startTestServer, defaultGameData, type TestServer } from "./server.js";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { makeTrader, type Trader, type TraderKind } from "./traders.js";
import { place, theWorld } from "./worldRoom.js";

/** The pairs of client kinds every trade flow runs between. */
export const PAIRS: Array<[TraderKind, TraderKind]> = [
  ["sdk", "sdk"],
  ["ws", "ws"],
  ["ws", "sdk"],
];

/** The world's own view of a player's inventory (the truth the clients are told). */
export const worldInventory = (room: WorldRoom, id: string) => room.world.players.get(id)!.inventory;
export const worldItems = (room: WorldRoom, id: string) => JSON.stringify(worldInventory(room, id));
export const countItems = (room: WorldRoom, id: string, itemId: string) =>
  worldInventory(room, id).reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);

/** Wait until `check` holds (polling the server's state, which has no event for it). */
export async function until(check: () => boolean, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The default world with the tinderbox marked untradeable (for the UNTRADEABLE refusal). */
async function worldWithUntradeable() {
  const data = await defaultGameData();
  const items = new Map(data.items);
  items.set("tinderbox", { ...items.get("tinderbox")!, tradeable: false });
  return { ...data, items };
}

/**
 * The hooks of a trading suite between a `kindA` and a `kindB` player: a server with short trade
 * timeouts (`started` receives it and its world room), the traders closed after each test.
 * Returns `pair()`: two new traders standing at the spawn.
 */
export function tradingHooks(kindA: TraderKind, kindB: TraderKind, started: (server: TestServer, room: WorldRoom) => void) {
  let server: TestServer;
  let room: WorldRoom;
  const traders: Trader[] = [];
  before(async () => {
    server = await startTestServer({
      gameData: await worldWithUntradeable(),
      tradeLimits: { requestTimeoutMs: 1_500, idleTimeoutMs: 3_000, repeatRequestMs: 1_000 },
    });
    room = await theWorld();
    started(server, room);
  });
  afterEach(async () => {
    await Promise.all(traders.splice(0).map((t) => t.close().catch(() => {})));
  });
  after(async () => {
    await server.close();
  });
  return {
    traders,
    async pair(): Promise<[Trader, Trader]> {
      const a = await makeTrader(kindA, server);
      const b = await makeTrader(kindB, server);
      traders.push(a, b);
      // Both at the spawn: well within trading range.
      place(room, a.id, room.world.spawnTile);
      place(room, b.id, room.world.spawnTile);
      return [a, b];
    },
  };
}
