import assert from "node:assert/strict";
import type { FacadeRoom } from "../../rooms/roomOps.js";
import { oneRoom, worldFacade } from "../../rooms/cluster/worldFacade.js";
import { createWorld } from "../../rooms/worldSetup.js";
import { startingInventory } from "../../src/game/inventory.js";
import { defaultSkillXp } from "../../src/game/skills.js";
import { addPlayer } from "../../src/game/world/players.js";
import type { World } from "../../src/game/world/World.js";
import type { WorldAccess } from "../../src/worldAccess.js";
import { defaultGameData, startTestServer, type TestServer } from "../helpers/server.js";
import { joinWorld } from "../helpers/worldClient.js";

/** ctx.world in one process: what routes, agents and start-up may know of the world, as copies. */
describe("world facade (ctx.world)", () => {
  describe("over a world room's fields", () => {
    let world: World;
    let sent: Array<[string, string, unknown]>;
    let reloaded: string[];
    let facade: WorldAccess;
    const session = (playerId: string, accountId: string) => ({
      accountId,
      client: { send: (type: string, data: unknown) => sent.push([playerId, type, data]) },
    });

    beforeEach(async () => {
      world = createWorld(await defaultGameData());
      sent = [];
      reloaded = [];
      for (const name of ["ann", "bob"]) {
        addPlayer(world, {
          id: `c_${name}`,
          accountId: `u_${name}`,
          name,
          isAgent: name === "bob",
          tile: world.spawnTile,
          xp: defaultSkillXp(),
          health: 100,
          inventory: startingInventory(world.data.starterKit, world.data.items),
          equipment: {},
          bank: [],
        });
      }
      // Only ann holds a session (bob is in the world between a leave's unlock and its removal, say).
      const room = {
        world,
        sessions: new Map([["c_ann", session("c_ann", "u_ann")]]),
        ignores: { reload: async (accountId: string) => void reloaded.push(accountId) },
      };
      facade = worldFacade(oneRoom(async () => room as unknown as FacadeRoom));
    });

    it("answers who is online, where, and as which character, with copies", async () => {
      const online = await facade.onlineCharacters();
      assert.deepEqual(online.map((p) => [p.id, p.name, p.isAgent]).sort(), [
        ["c_ann", "ann", false],
        ["c_bob", "bob", true],
      ]);
      assert.deepEqual(await facade.whereIs("c_ann"), world.spawnTile);
      assert.equal(await facade.whereIs("c_nobody"), undefined);
      assert.equal(await facade.isOnline("c_bob"), true);
      assert.equal(await facade.isOnline("c_nobody"), false);

      const ann = (await facade.character("c_ann"))!;
      assert.equal(ann.combatLevel, world.players.get("c_ann")!.combatLevel);
      assert.equal(ann.accountId, "u_ann");
      ann.tile.x += 5;
      ann.inventory[0] = null;
      ann.xp.woodcutting = 1e6;
      online[0].tile.z += 5;
      const live = world.players.get("c_ann")!;
      assert.deepEqual(live.tile, world.spawnTile, "a copy: the world's player did not move");
      assert.notEqual(live.inventory[0], null);
      assert.equal(live.xp.woodcutting, 0);
      assert.equal(await facade.character("c_nobody"), undefined);
    });

    it("tells sessions from presence, by character and by account", async () => {
      assert.equal(await facade.hasSession("c_ann"), true);
      assert.equal(await facade.hasSession("c_bob"), false);
      assert.equal(await facade.isAccountOnline("u_ann"), true);
      assert.equal(await facade.isAccountOnline("u_bob"), false);
    });

    it("sends to the session's client only, reloads ignore lists, renames in the world", async () => {
      assert.equal(await facade.sendTo("c_ann", "goalOverride", { goalsPaused: true }), true);
      assert.equal(await facade.sendTo("c_bob", "goalOverride", {}), false);
      assert.deepEqual(sent, [["c_ann", "goalOverride", { goalsPaused: true }]]);
      await facade.reloadIgnores("u_ann");
      assert.deepEqual(reloaded, ["u_ann"]);

      await facade.rename("c_bob", "robert");
      const bob = world.players.get("c_bob")!;
      assert.equal(bob.name, "robert");
      assert.equal(bob.dirty, true, "the new name is saved and synchronised");
      await facade.rename("c_nobody", "x");
    });

    it("sums npcs and resources per area, and gives the spawn and the map", async () => {
      const summary = (await facade.summary())!;
      assert.equal(summary.tick, world.tick);
      assert.equal(summary.players.length, 2);
      const npcs = Object.values(summary.areas).reduce((n, a) => n + a.npcs.alive + a.npcs.dead, 0);
      const resources = Object.values(summary.areas).reduce((n, a) => n + a.resources.available + a.resources.depleted, 0);
      assert.equal(npcs, world.npcs.size);
      assert.equal(resources, world.resources.size);
      for (const id of Object.keys(summary.areas)) assert.ok(world.data.worldAreas.has(id), `area ${id} is one of the world's`);

      const npc = world.npcs.values().next().value!;
      const before = summary.areas[npc.id.split(":")[1]!]!.npcs.dead;
      npc.deadUntilTick = world.tick + 10;
      assert.equal((await facade.summary())!.areas[npc.id.split(":")[1]!]!.npcs.dead, before + 1);

      assert.deepEqual(await facade.spawnTile(), world.spawnTile);
      const k = (await facade.mapKnowledge())!;
      assert.ok(k.banks.length > 0 && k.resourceSpots.size > 0);
    });

    it("with no world running: nobody online, nothing sent, no summary", async () => {
      const none = worldFacade(oneRoom(async () => undefined));
      assert.deepEqual(await none.onlineCharacters(), []);
      assert.equal(await none.character("c_ann"), undefined);
      assert.equal(await none.whereIs("c_ann"), undefined);
      assert.equal(await none.isOnline("c_ann"), false);
      assert.equal(await none.hasSession("c_ann"), false);
      assert.equal(await none.isAccountOnline("u_ann"), false);
      assert.equal(await none.sendTo("c_ann", "goalOverride", {}), false);
      await none.reloadIgnores("u_ann");
      await none.rename("c_ann", "x");
      assert.equal(await none.spawnTile(), undefined);
      assert.equal(await none.summary(), undefined);
      assert.equal(await none.mapKnowledge(), undefined);
      assert.equal(await none.worldOf("c_ann"), undefined);
    });
  });

  describe("in a running server", function () {
    this.timeout(60_000);
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
    });
    after(async () => {
      await server.close();
    });

    it("finds the world room of this process: a joined SDK player is online, has a session, and hears sendTo", async () => {
      const p = await joinWorld(server);
      try {
        const world = server.ctx.world;
        assert.equal(await world.isOnline(p.id), true);
        assert.equal(await world.hasSession(p.id), true);
        assert.equal(await world.isAccountOnline(p.accountId), true);
        assert.ok((await world.onlineCharacters()).some((c) => c.id === p.id));
        assert.equal(await world.sendTo(p.id, "notice", { code: "TEST", message: "hello" }), true);
        assert.equal((await p.next("notice", (d) => d.message === "hello")).message, "hello");
      } finally {
        await p.leave();
      }
    });
  });
});
