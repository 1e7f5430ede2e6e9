import type { WorldRoom } from "../../rooms/WorldRoom.js";
import type { PlayerEntity } from "../../src/game/world/entities.js";
import { startTestServer, type TestServer } from "./server.js";
import { guestToken } from "./worldClient.js";
import { theWorld } from "./worldRoom.js";
import { wsConnect, type Frame, type WsPlayer } from "./wsClient.js";

/**
 * A mocha suite's world for /ws players: one server for the suite, sockets closed after each test.
 * `player()` is a new guest on /ws, authenticated and in the world, with its character in the room.
 * Call inside `describe`.
 */
export function wsWorldSuite() {
  let server: TestServer | undefined;
  const open: WsPlayer[] = [];
  before(async () => {
    server = await startTestServer();
  });
  afterEach(() => {
    for (const s of open.splice(0)) s.close();
  });
  after(async () => {
    await server?.close();
  });
  return {
    get server(): TestServer {
      if (!server) throw new Error("the suite's server is not started");
      return server;
    },
    async player(): Promise<{ ws: WsPlayer; room: WorldRoom; p: PlayerEntity }> {
      const who = await guestToken(server!);
      const ws = await wsConnect(server!.port, `?token=${encodeURIComponent(who.token)}`);
      open.push(ws);
      const auth = await ws.next("authenticated");
      await ws.next("player:sync");
      const room = await theWorld();
      return { ws, room, p: room.world.players.get(auth.data.playerId)! };
    },
  };
}

/** How many of an item a player:sync frame's inventory holds. */
export const syncCount = (sync: Frame, itemId: string) =>
  sync.data.inventory.filter((s: { itemId: string }) => s.itemId === itemId).reduce((n: number, s: { quantity: number }) => n + s.quantity, 0);
