import assert from "node:assert/strict";
import { guestToken, worldSuite, type WorldPlayer } from "../helpers/worldClient.js";
import { place, ticks, walkableNear, worldRoomOf } from "../helpers/worldRoom.js";
import { seededRng } from "../../src/game/random.js";
import { wsConnect, type WsPlayer } from "../helpers/wsClient.js";
import { ghostsAndMissing, heldBy, wsModelOf } from "../helpers/viewChecks.js";

/**
 * world:update under churn (rooms/interest/worldViews.ts, PROTOCOL.md §2): /ws players walking, teleported
 * across zones, dropping what only they may see, among SDK players teleported and taken over
 * between two ticks, in a crowd over a small cap. After every round, with the tick loop stopped,
 * the model each /ws client built from its world:update frames alone holds exactly the entities
 * the server has it see: no ghost, nothing missing.
 */

/** A /ws client of a player. */
interface Watcher {
  ws: WsPlayer;
  id: string;
}

/** Every frame the client was sent until now: those before the answer to a ping sent now (the socket keeps their order). */
async function framesUntilNow(ws: WsPlayer) {
  const mark = ws.mark();
  ws.send("ping", {});
  await ws.next("pong", () => true, { since: mark });
  return ws.frames.slice(0, ws.frames.findIndex((f, i) => i >= mark && f.type === "pong"));
}

describe("world room: world:update under churn", function () {
  this.timeout(120_000);
  const suite = worldSuite({ env: { VIEW_PLAYER_CAP: "3" } });

  it("walks, teleports, private drops and take-overs between two ticks: each /ws client's model is what the server has it see, round after round", async () => {
    const rnd = seededRng(11);
    const watchers: Watcher[] = [];
    try {
      for (let i = 0; i < 4; i++) {
        const who = await guestToken(suite.server);
        const ws = await wsConnect(suite.server.port, `?token=${encodeURIComponent(who.token)}`);
        const id = (await ws.next("authenticated")).data.playerId as string;
        watchers.push({ ws, id });
      }
      const others: WorldPlayer[] = [];
      for (let i = 0; i < 4; i++) others.push(await suite.join());
      const room = worldRoomOf(others[0]);
      const spawn = room.world.spawnTile;
      const mismatches: string[] = [];
      let compared = 0;
      for (let round = 0; round < 20; round++) {
        const between = rnd() < 0.4;
        if (between) room.loop.stop();
        try {
          for (let k = 0; k < 3; k++) {
            const roll = rnd();
            const w = watchers[Math.floor(rnd() * watchers.length)];
            const o = others[Math.floor(rnd() * others.length)];
            const me = room.world.players.get(w.id)!;
            if (roll < 0.35) w.ws.send("player:move", walkableNear(room, me.tile, 12, rnd));
            else if (roll < 0.55) place(room, w.id, walkableNear(room, spawn, 70, rnd));
            else if (roll < 0.7) place(room, o.id, rnd() < 0.5 ? { ...me.tile } : walkableNear(room, spawn, 70, rnd));
            else if (roll < 0.8) {
              room.world.addGroundItem({ id: room.world.newId(), itemId: "logs", quantity: 1, tile: { ...me.tile }, ownerId: w.id, createdTick: room.world.tick });
            } else {
              // Another player taken over by a new session of the same character.
              const again = await suite.join({ characterId: o.id }, { token: o.token, accountId: o.accountId });
              others[others.indexOf(o)] = again;
            }
          }
        } finally {
          if (between) room.loop.begin();
        }
        await ticks(room, 1 + Math.floor(rnd() * 2));
        // Between two ticks, what each was sent is compared with what the server says it holds.
        room.loop.stop();
        try {
          for (const w of watchers) {
            const { ghosts, missing } = ghostsAndMissing(wsModelOf(await framesUntilNow(w.ws)), heldBy(room, w.id));
            if (ghosts.length || missing.length) mismatches.push(`round ${round} tick ${room.world.tick} ${w.id}: ghosts ${ghosts}, missing ${missing}`);
            compared++;
          }
        } finally {
          room.loop.begin();
        }
      }
      assert.deepEqual(mismatches, []);
      assert.equal(compared, 80);
      assert.ok(
        watchers.every((w) => wsModelOf(w.ws.frames).size > 0),
        "every client was shown something",
      );
    } finally {
      for (const w of watchers) w.ws.close();
    }
  });
});
