import assert from "node:assert/strict";
import { CloseCode, getMessageBytes, matchMaker, Protocol, Room, type Client } from "@colyseus/core";
import { InMemoryRoomClient, joinInMemory } from "../../rooms/inMemoryClient.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

/**
 * An in-memory client's messages reach its room's handlers in place (rooms/inMemoryClient.ts
 * `deliver`), through the handler registry Colyseus exposes (Room.onMessageEvents), with the checks
 * the room makes of a decoded frame. These fail when a Colyseus upgrade changes that registry or
 * those checks.
 */

/** A room that keeps what its handlers are given, and allows five messages a second per client. */
class Notes extends Room {
  maxMessagesPerSecond = 5;
  readonly got: Array<{ type: string; payload: unknown; client: Client }> = [];
  onCreate() {
    this.autoDispose = false;
    this.onMessage("note", (client: Client, payload: unknown) => this.got.push({ type: "note", payload, client }));
    this.onMessage("*", (client: Client, type: string | number, payload: unknown) => this.got.push({ type: `*${String(type)}`, payload, client }));
  }
}

class Quiet extends InMemoryRoomClient {}

describe("in-memory clients' messages go to the room's handlers in place", function () {
  this.timeout(30_000);
  let server: TestServer;
  let room: Notes;

  before(async () => {
    server = await startTestServer();
    matchMaker.defineRoomType("notes", Notes);
    const listing = await matchMaker.createRoom("notes", {});
    room = matchMaker.getLocalRoomById(listing.roomId) as Notes;
  });
  after(async () => {
    await room?.disconnect();
    matchMaker.removeRoomType("notes");
    await server?.close();
  });

  async function joined() {
    room.got.length = 0;
    const { client } = await joinInMemory((id) => new Quiet(id), "", {}, "notes");
    assert.equal(client.room, room, "the client knows its room once joined");
    return client;
  }

  it("a typed message reaches its handler with the very payload sent (nothing encoded); an unknown type reaches '*'", async () => {
    const client = await joined();
    const encode = getMessageBytes.raw;
    let encoded = 0;
    getMessageBytes.raw = ((...args: Parameters<typeof encode>) => {
      encoded++;
      return encode(...args);
    }) as typeof encode;
    try {
      const payload = { text: "hello", n: 3 };
      client.sendToRoom("note", payload);
      client.sendToRoom("nonsense", { a: 1 });
      assert.equal(encoded, 0, "no frame was encoded");
    } finally {
      getMessageBytes.raw = encode;
    }
    assert.deepEqual(
      room.got.map((g) => [g.type, g.payload]),
      [
        ["note", { text: "hello", n: 3 }],
        ["*nonsense", { a: 1 }],
      ],
    );
    assert.equal(room.got[0]!.client, client);
    client.leave();
  });

  it("over the room's messages per second the client is closed, after the same messages as when they come as frames; a closed client's messages go nowhere", async () => {
    /** The messages of a client sending eight at once that reach the handler, and how the client was closed. */
    const burst = async (send: (client: InMemoryRoomClient, i: number) => void) => {
      const client = await joined();
      for (let i = 0; i < 8; i++) send(client, i);
      await new Promise<void>((resolve) => (client.closed ? resolve() : client.ref.once("close", () => resolve())));
      const passed = room.got.filter((g) => g.client === client).map((g) => (g.payload as { i: number }).i);
      client.sendToRoom("note", { i: 99 });
      assert.ok(!room.got.some((g) => (g.payload as { i: number }).i === 99), "nothing after the close");
      return { passed, code: client.closeCode };
    };
    const inPlace = await burst((c, i) => c.sendToRoom("note", { i }));
    const frames = await burst((c, i) => c.receive(getMessageBytes.raw(Protocol.ROOM_DATA, "note", { i })));
    assert.deepEqual(inPlace, frames);
    assert.equal(inPlace.code, CloseCode.WITH_ERROR);
    assert.ok(inPlace.passed.length >= 4 && inPlace.passed.length <= 6, `passed ${inPlace.passed}`);
  });
});
