import assert from "node:assert/strict";
import { worldSuite, type WorldPlayer } from "../helpers/worldClient.js";
import { place, ticks, walkableNear, worldRoomOf } from "../helpers/worldRoom.js";
import { seededRng } from "../../src/game/random.js";
import { checkEveryPatch, recordComplaints, recordViews } from "../helpers/viewChecks.js";

/**
 * Views under churn (rooms/interest/worldViews.ts): SDK players walking, teleported across zones, dropping
 * what only they may see, leaving, coming back and taken over, some of it between two ticks, in a
 * crowd over a small cap. Every client decodes, patch after patch, exactly what the server has it
 * see, and its decoder never meets a structure it does not know.
 */

describe("world room: views under churn", function () {
  this.timeout(120_000);
  const suite = worldSuite({ env: { VIEW_PLAYER_CAP: "3" } });

  it("walks, teleports, private drops, leaves, returns and take-overs, some between two ticks: every client decodes what the server has it see", async () => {
    const rnd = seededRng(7);
    const players: WorldPlayer[] = [];
    for (let i = 0; i < 6; i++) players.push(await suite.join());
    const room = worldRoomOf(players[0]);
    const spawn = room.world.spawnTile;
    const byTick = recordViews(room);
    const complaints = recordComplaints("error");
    const checks = new Map(players.map((p) => [p, checkEveryPatch(p, byTick)]));
    const swap = async (from: WorldPlayer, join: () => Promise<WorldPlayer>) => {
      checks.get(from)?.stop();
      const to = await join();
      players[players.indexOf(from)] = to;
      checks.set(to, checkEveryPatch(to, byTick));
    };
    const mismatches: string[] = [];
    try {
      for (let round = 0; round < 24; round++) {
        const pick = () => players[Math.floor(rnd() * players.length)];
        const between = rnd() < 0.3;
        if (between) room.loop.stop();
        try {
          for (let k = 0; k < 3; k++) {
            const p = pick();
            const me = room.world.players.get(p.id);
            if (!me) continue;
            const roll = rnd();
            if (roll < 0.45) p.send("player:move", walkableNear(room, me.tile, 12, rnd));
            else if (roll < 0.65) place(room, p.id, walkableNear(room, spawn, 70, rnd));
            else if (roll < 0.75) {
              room.world.addGroundItem({ id: room.world.newId(), itemId: "logs", quantity: 1, tile: { ...me.tile }, ownerId: p.id, createdTick: room.world.tick });
            } else if (roll < 0.88) {
              // Taken over by a new session of the same character.
              await swap(p, () => suite.join({ characterId: p.id }, { token: p.token, accountId: p.accountId }));
            } else {
              // Leaves, and comes back.
              await swap(p, async () => {
                await p.leave();
                while (room.sessions.has(p.id)) await new Promise((r) => setImmediate(r));
                return suite.join({ characterId: p.id }, { token: p.token, accountId: p.accountId });
              });
            }
          }
        } finally {
          if (between) room.loop.begin();
        }
        await ticks(room, 1 + Math.floor(rnd() * 2));
      }
      await ticks(room, 2);
    } finally {
      complaints.stop();
      for (const c of checks.values()) {
        c.stop();
        mismatches.push(...c.mismatches);
      }
    }
    assert.deepEqual(mismatches, []);
    assert.deepEqual(complaints.lines, [], "no decoder met a structure it does not know");
    const checked = [...checks.values()].reduce((n, c) => n + c.checked(), 0);
    assert.ok(checked > 60, `patches checked: ${checked}`);
  });
});
