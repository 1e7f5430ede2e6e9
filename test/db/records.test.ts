import assert from "node:assert/strict";
import type { PrismaClient } from "@prisma/client";
import { syncItems } from "../../src/db/itemSync.js";
import { DATABASE_KINDS, openTestDb, type TestDb } from "../helpers/database.js";

const ITEMS = [
  { id: "bronze_sword", name: "Bronze sword", type: "weapon", stackable: false, value: 26, tradeable: true, equipSlot: "weapon" },
  { id: "coins", name: "Coins", type: "currency", stackable: true, value: 1, tradeable: true },
  { id: "logs", name: "Logs", type: "resource", stackable: false, value: 4, tradeable: true },
  { id: "bronze_arrow", name: "Bronze arrow", type: "ammunition", stackable: true, value: 1, tradeable: true, equipSlot: "arrows" },
];

async function seed(prisma: PrismaClient) {
  await prisma.user.create({ data: { id: "acc1", idpUserId: "idp|1", socialIds: { farcaster: "42" }, roles: ["player", "admin"] } });
  await prisma.user.create({ data: { id: "acc2", isGuest: true } });
  await prisma.character.create({ data: { id: "c1", accountId: "acc1", name: "Aldric" } });
  await prisma.character.create({ data: { id: "c2", accountId: "acc2", name: "Brin" } });
}

/** Assert that a write is refused by the database (a constraint), whatever the driver's wording. */
async function refused(write: Promise<unknown>, what: string) {
  await assert.rejects(write, `${what} must be refused`);
}

for (const kind of DATABASE_KINDS) {
  describe(`records on ${kind}`, function () {
    this.timeout(60_000);
    let t: TestDb;
    let prisma: PrismaClient;

    before(async () => {
      t = await openTestDb(kind);
      prisma = t.db.prisma;
      await syncItems(t.db.sql, ITEMS);
      await seed(prisma);
    });
    after(async () => {
      await t?.cleanup();
    });

    it("users keep identity-provider id, social ids, roles and the guest flag", async () => {
      const u = await prisma.user.findUniqueOrThrow({ where: { idpUserId: "idp|1" } });
      assert.deepEqual(u.socialIds, { farcaster: "42" });
      assert.deepEqual(u.roles, ["player", "admin"]);
      assert.equal(u.isGuest, false);
      assert.equal((await prisma.user.findUniqueOrThrow({ where: { id: "acc2" } })).isGuest, true);
    });

    it("characters get the documented defaults and keep every skill's level and xp", async () => {
      const c = await prisma.character.findUniqueOrThrow({ where: { id: "c1" } });
      assert.deepEqual(
        [
          c.combatLevel,
          c.attackLevel,
          c.strengthLevel,
          c.defenseLevel,
          c.constitutionLevel,
          c.rangedLevel,
          c.woodcuttingLevel,
          c.fishingLevel,
          c.firemakingLevel,
          c.cookingLevel,
        ],
        [3, 1, 1, 1, 10, 1, 1, 1, 1, 1],
      );
      assert.deepEqual([c.health, c.coins, c.positionX, c.positionY, c.positionZ, c.isAgent], [100, 0, 0, 10, 0, false]);
      assert.deepEqual(
        [c.prayerLevel, c.magicLevel, c.miningLevel, c.smithingLevel, c.agilityLevel, c.craftingLevel, c.fletchingLevel, c.runecraftingLevel],
        [1, 1, 1, 1, 1, 1, 1, 1],
      );
      await prisma.character.update({ where: { id: "c1" }, data: { miningXp: 13_363, miningLevel: 30, positionX: 12.5, isAgent: true } });
      const back = await prisma.character.findUniqueOrThrow({ where: { id: "c1" } });
      assert.deepEqual([back.miningXp, back.miningLevel, back.positionX, back.isAgent], [13_363, 30, 12.5, true]);
    });

    it("character checks: levels 1..99, no negative coins or health, names unique ignoring case", async () => {
      await refused(prisma.character.update({ where: { id: "c1" }, data: { attackLevel: 100 } }), "level 100");
      await refused(prisma.character.update({ where: { id: "c1" }, data: { coins: -1 } }), "negative coins");
      await refused(prisma.character.update({ where: { id: "c1" }, data: { health: -5 } }), "negative health");
      await refused(prisma.character.update({ where: { id: "c1" }, data: { woodcuttingXp: -1 } }), "negative xp");
      await refused(prisma.character.create({ data: { id: "c3", accountId: "acc2", name: "aLDRIC" } }), "a name differing only in case");
      await refused(prisma.character.create({ data: { id: "c4", accountId: "nobody", name: "Ghost" } }), "an unknown account");
    });

    it("items: synced definitions read back; inactive when they leave the manifests", async () => {
      const sword = await prisma.item.findUniqueOrThrow({ where: { id: "bronze_sword" } });
      assert.equal(sword.equipSlot, "weapon");
      assert.equal(sword.value, 26);
      const result = await syncItems(t.db.sql, [...ITEMS.filter((i) => i.id !== "logs"), { ...ITEMS[2], id: "oak_logs", name: "Oak logs" }]);
      assert.deepEqual(result, { active: 4, deactivated: 1 });
      assert.equal((await prisma.item.findUniqueOrThrow({ where: { id: "logs" } })).active, false);
      assert.equal((await prisma.item.findUniqueOrThrow({ where: { id: "oak_logs" } })).active, true);
      await syncItems(t.db.sql, ITEMS);
      assert.equal((await prisma.item.findUniqueOrThrow({ where: { id: "logs" } })).active, true);
    });

    it("items: a sync of unchanged definitions writes nothing; a changed one is written, with its time", async () => {
      await syncItems(t.db.sql, ITEMS);
      const stamps = async () => new Map((await prisma.item.findMany()).map((i) => [i.id, i.updatedAt.getTime()]));
      const before = await stamps();
      // PostgreSQL's CURRENT_TIMESTAMP is the transaction's start: a later sync stamps a later time.
      await t.db.sql.query("SELECT pg_sleep(0.01)");
      await syncItems(t.db.sql, ITEMS);
      assert.deepEqual(await stamps(), before, "nothing written");
      await syncItems(
        t.db.sql,
        ITEMS.map((i) => (i.id === "coins" ? { ...i, value: 2 } : i)),
      );
      const after = await stamps();
      assert.ok(after.get("coins")! > before.get("coins")!, "the changed definition");
      assert.equal((await prisma.item.findUniqueOrThrow({ where: { id: "coins" } })).value, 2);
      for (const id of ["bronze_sword", "logs", "bronze_arrow"]) assert.equal(after.get(id), before.get(id), id);
      await syncItems(t.db.sql, ITEMS);
    });

    it("inventory: one row per occupied slot, slots 0..27, quantity > 0, known items only", async () => {
      await prisma.inventoryItem.createMany({
        data: [
          { characterId: "c1", slot: 0, itemId: "bronze_sword", quantity: 1 },
          { characterId: "c1", slot: 27, itemId: "coins", quantity: 2_000_000_000 },
        ],
      });
      const rows = await prisma.inventoryItem.findMany({ where: { characterId: "c1" }, orderBy: { slot: "asc" } });
      assert.deepEqual(
        rows.map((r) => [r.slot, r.itemId, r.quantity]),
        [
          [0, "bronze_sword", 1],
          [27, "coins", 2_000_000_000],
        ],
      );
      await refused(prisma.inventoryItem.create({ data: { characterId: "c1", slot: 0, itemId: "logs", quantity: 1 } }), "a second item in slot 0");
      await refused(prisma.inventoryItem.create({ data: { characterId: "c1", slot: 28, itemId: "logs", quantity: 1 } }), "slot 28");
      await refused(prisma.inventoryItem.create({ data: { characterId: "c1", slot: 3, itemId: "logs", quantity: 0 } }), "quantity 0");
      await refused(prisma.inventoryItem.create({ data: { characterId: "c1", slot: 4, itemId: "no_such_item", quantity: 1 } }), "an unknown item");
    });

    it("equipment: one item per slot type, positive quantity", async () => {
      await prisma.equipmentItem.create({ data: { characterId: "c1", slot: "weapon", itemId: "bronze_sword" } });
      await prisma.equipmentItem.create({ data: { characterId: "c1", slot: "arrows", itemId: "bronze_arrow", quantity: 150 } });
      const worn = await prisma.equipmentItem.findMany({ where: { characterId: "c1" }, orderBy: { slot: "asc" } });
      assert.deepEqual(
        worn.map((w) => [w.slot, w.itemId, w.quantity]),
        [
          ["weapon", "bronze_sword", 1],
          ["arrows", "bronze_arrow", 150],
        ],
      );
      await refused(prisma.equipmentItem.create({ data: { characterId: "c1", slot: "weapon", itemId: "bronze_sword" } }), "a second weapon");
      await refused(prisma.equipmentItem.create({ data: { characterId: "c2", slot: "ring", itemId: "coins", quantity: -1 } }), "a negative quantity");
    });

    it("bank: one stack per item, no negative quantity (0: a placeholder), a tab from 0 to 9", async () => {
      await prisma.bankItem.create({ data: { characterId: "c1", itemId: "logs", quantity: 500, slot: 0 } });
      assert.equal((await prisma.bankItem.findUniqueOrThrow({ where: { characterId_itemId: { characterId: "c1", itemId: "logs" } } })).quantity, 500);
      await refused(prisma.bankItem.create({ data: { characterId: "c1", itemId: "logs", quantity: 1, slot: 1 } }), "a second logs stack");
      await refused(prisma.bankItem.create({ data: { characterId: "c1", itemId: "coins", quantity: -1, slot: 2 } }), "a negative stack");
      await prisma.bankItem.create({ data: { characterId: "c1", itemId: "coins", quantity: 0, slot: 2, tab: 9 } });
      await refused(prisma.bankItem.create({ data: { characterId: "c2", itemId: "coins", quantity: 1, slot: 0, tab: 10 } }), "tab 10");
      await refused(prisma.bankItem.create({ data: { characterId: "c2", itemId: "logs", quantity: 1, slot: 0, tab: -1 } }), "tab -1");
    });

    it("world chunks keep persistent world changes", async () => {
      const data = { groundItems: [{ itemId: "logs", quantity: 1, x: 3, z: 4 }], depleted: ["tree_1"] };
      await prisma.worldChunk.create({ data: { chunkX: -2, chunkZ: 5, data } });
      assert.deepEqual((await prisma.worldChunk.findUniqueOrThrow({ where: { world_chunkX_chunkZ: { world: "1", chunkX: -2, chunkZ: 5 } } })).data, data);
    });

    it("player sessions record login and logout; logout never before login", async () => {
      const start = new Date("2026-01-01T10:00:00Z");
      await prisma.playerSession.create({ data: { id: "s1", characterId: "c1", accountId: "acc1", startedAt: start } });
      await prisma.playerSession.update({ where: { id: "s1" }, data: { endedAt: new Date("2026-01-01T11:00:00Z"), endReason: "logout" } });
      const s = await prisma.playerSession.findUniqueOrThrow({ where: { id: "s1" } });
      assert.equal(s.endedAt?.toISOString(), "2026-01-01T11:00:00.000Z");
      await refused(
        prisma.playerSession.create({ data: { id: "s2", characterId: "c1", accountId: "acc1", startedAt: start, endedAt: new Date("2025-12-31T00:00:00Z") } }),
        "logout before login",
      );
    });

    it("player deaths: one open death lock per character, resolvable once", async () => {
      const items = [{ itemId: "bronze_sword", quantity: 1 }];
      await prisma.playerDeath.create({ data: { id: "d1", characterId: "c1", positionX: 1, positionY: 0, positionZ: 2, items } });
      assert.deepEqual((await prisma.playerDeath.findUniqueOrThrow({ where: { id: "d1" } })).items, items);
      await refused(prisma.playerDeath.create({ data: { id: "d2", characterId: "c1", positionX: 0, positionY: 0, positionZ: 0 } }), "a second open death lock");
      const claimed = await prisma.playerDeath.updateMany({ where: { id: "d1", resolvedAt: null }, data: { resolvedAt: new Date(), resolution: "reclaimed" } });
      const again = await prisma.playerDeath.updateMany({ where: { id: "d1", resolvedAt: null }, data: { resolvedAt: new Date(), resolution: "reclaimed" } });
      assert.deepEqual([claimed.count, again.count], [1, 0]);
      await prisma.playerDeath.create({ data: { id: "d3", characterId: "c1", positionX: 0, positionY: 0, positionZ: 0 } });
    });

    it("npc kills count per character and npc", async () => {
      await prisma.npcKill.create({ data: { characterId: "c1", npcId: "goblin" } });
      await prisma.npcKill.update({ where: { characterId_npcId: { characterId: "c1", npcId: "goblin" } }, data: { count: { increment: 1 } } });
      assert.equal((await prisma.npcKill.findUniqueOrThrow({ where: { characterId_npcId: { characterId: "c1", npcId: "goblin" } } })).count, 2);
      await refused(prisma.npcKill.create({ data: { characterId: "c1", npcId: "cow", count: 0 } }), "a zero count");
    });

    it("friendships are one ordered row per pair; requests never to oneself, one pending per pair", async () => {
      await prisma.friendship.create({ data: { characterAId: "c1", characterBId: "c2" } });
      const ofC2 = await prisma.friendship.findMany({ where: { OR: [{ characterAId: "c2" }, { characterBId: "c2" }] } });
      assert.equal(ofC2.length, 1);
      await refused(prisma.friendship.create({ data: { characterAId: "c2", characterBId: "c1" } }), "the reversed pair");
      await prisma.friendRequest.create({ data: { id: "fr1", fromCharacterId: "c2", toCharacterId: "c1" } });
      assert.equal((await prisma.friendRequest.findUniqueOrThrow({ where: { id: "fr1" } })).status, "pending");
      await refused(prisma.friendRequest.create({ data: { id: "fr2", fromCharacterId: "c2", toCharacterId: "c1" } }), "a second pending request");
      await refused(prisma.friendRequest.create({ data: { id: "fr3", fromCharacterId: "c1", toCharacterId: "c1" } }), "a request to oneself");
      await prisma.friendRequest.update({ where: { id: "fr1" }, data: { status: "declined", respondedAt: new Date() } });
      await prisma.friendRequest.create({ data: { id: "fr4", fromCharacterId: "c2", toCharacterId: "c1" } });
    });

    it("ignore lists are per account", async () => {
      await prisma.ignoreEntry.create({ data: { accountId: "acc1", ignoredCharacterId: "c2" } });
      assert.deepEqual(
        (await prisma.ignoreEntry.findMany({ where: { accountId: "acc1" } })).map((e) => e.ignoredCharacterId),
        ["c2"],
      );
      await refused(prisma.ignoreEntry.create({ data: { accountId: "acc1", ignoredCharacterId: "c2" } }), "ignoring twice");
    });

    it("trades: history with both parties, offers and values; a trade id is recorded once", async () => {
      const offerA = [{ itemId: "bronze_sword", quantity: 1 }];
      const offerB = [{ itemId: "coins", quantity: 300 }];
      await prisma.trade.create({
        data: {
          id: "t1",
          initiatorId: "c1",
          recipientId: "c2",
          initiatorName: "Aldric",
          recipientName: "Brin",
          initiatorOffer: offerA,
          recipientOffer: offerB,
          initiatorValue: 26n,
          recipientValue: 300n,
        },
      });
      const tr = await prisma.trade.findUniqueOrThrow({ where: { id: "t1" } });
      assert.deepEqual([tr.initiatorOffer, tr.recipientOffer, tr.initiatorValue, tr.recipientValue], [offerA, offerB, 26n, 300n]);
      await refused(
        prisma.trade.create({ data: { id: "t1", initiatorName: "x", recipientName: "y", initiatorOffer: [], recipientOffer: [] } }),
        "the same trade twice",
      );
      await refused(
        prisma.trade.create({
          data: { id: "t2", initiatorId: "c1", recipientId: "c1", initiatorName: "x", recipientName: "x", initiatorOffer: [], recipientOffer: [] },
        }),
        "a trade with oneself",
      );
    });

    it("agent mappings and goals: one active goal per agent", async () => {
      await prisma.agentMapping.create({ data: { agentId: "ag1", characterId: "c2", ownerAccountId: "acc1", name: "Brin" } });
      await prisma.agentGoal.create({ data: { id: "g1", agentId: "ag1", type: "woodcutting", target: "tree", progress: { logs: 3 } } });
      const m = await prisma.agentMapping.findUniqueOrThrow({ where: { agentId: "ag1" }, include: { goals: true } });
      assert.equal(m.characterId, "c2");
      assert.deepEqual(
        m.goals.map((g) => [g.type, g.status, g.progress]),
        [["woodcutting", "active", { logs: 3 }]],
      );
      await refused(prisma.agentGoal.create({ data: { id: "g2", agentId: "ag1", type: "mining" } }), "a second active goal");
      await refused(
        prisma.agentMapping.create({ data: { agentId: "ag2", characterId: "c2", ownerAccountId: "acc1", name: "dup" } }),
        "a second agent for one character",
      );
    });

    it("deleting an account removes its characters and their records, but keeps trade history", async () => {
      await prisma.user.delete({ where: { id: "acc2" } });
      assert.equal(await prisma.character.count({ where: { id: "c2" } }), 0);
      assert.equal(await prisma.agentMapping.count({ where: { characterId: "c2" } }), 0);
      const tr = await prisma.trade.findUniqueOrThrow({ where: { id: "t1" } });
      assert.equal(tr.recipientId, null);
      assert.equal(tr.recipientName, "Brin");
    });
  });
}
