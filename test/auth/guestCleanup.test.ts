import assert from "node:assert/strict";
import type { PrismaClient } from "@prisma/client";
import { removeIdleGuests, startGuestCleanup } from "../../src/auth/guestCleanup.js";
import { syncItems } from "../../src/db/itemSync.js";
import { silentLogger } from "../../src/logger.js";
import { DATABASE_KINDS, openTestDb, type TestDb } from "../helpers/database.js";

const HOUR = 3600_000;
const NOW = new Date("2030-01-10T12:00:00Z");

async function account(prisma: PrismaClient, id: string, opts: { guest: boolean; seenHoursAgo: number; characters?: string[]; from?: Date }) {
  const lastSeenAt = new Date((opts.from ?? NOW).getTime() - opts.seenHoursAgo * HOUR);
  await prisma.user.create({ data: { id, isGuest: opts.guest, idpUserId: opts.guest ? null : `idp|${id}`, lastSeenAt } });
  for (const c of opts.characters ?? []) {
    await prisma.character.create({ data: { id: c, accountId: id, name: `N${c}` } });
    await prisma.inventoryItem.create({ data: { characterId: c, slot: 0, itemId: "logs", quantity: 1 } });
    await prisma.bankItem.create({ data: { characterId: c, itemId: "coins", quantity: 50, slot: 0 } });
  }
}

for (const kind of DATABASE_KINDS) {
  describe(`idle guest cleanup on ${kind}`, function () {
    this.timeout(60_000);
    let t: TestDb;
    let prisma: PrismaClient;

    beforeEach(async () => {
      t = await openTestDb(kind);
      prisma = t.db.prisma;
      await syncItems(t.db.sql, [
        { id: "logs", name: "Logs", type: "resource", stackable: false, value: 4, tradeable: true },
        { id: "coins", name: "Coins", type: "currency", stackable: true, value: 1, tradeable: true },
      ] as never);
    });
    afterEach(async () => {
      await t.cleanup();
    });

    it("removes idle offline guests with their characters and keeps everyone else", async () => {
      await account(prisma, "guest_idle", { guest: true, seenHoursAgo: 100, characters: ["c_idle1", "c_idle2"] });
      await account(prisma, "guest_recent", { guest: true, seenHoursAgo: 10, characters: ["c_recent"] });
      await account(prisma, "guest_online", { guest: true, seenHoursAgo: 500, characters: ["c_online"] });
      await account(prisma, "u_member", { guest: false, seenHoursAgo: 10_000, characters: ["c_member"] });

      const removed = await removeIdleGuests(prisma, { idleHours: 72, now: NOW, isOnline: (id) => id === "guest_online" });
      assert.equal(removed, 1);

      const users = (await prisma.user.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((u) => u.id);
      assert.deepEqual(users, ["guest_online", "guest_recent", "u_member"]);
      const characters = (await prisma.character.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((c) => c.id);
      assert.deepEqual(characters, ["c_member", "c_online", "c_recent"]);
      assert.equal(await prisma.inventoryItem.count({ where: { characterId: { in: ["c_idle1", "c_idle2"] } } }), 0);
      assert.equal(await prisma.bankItem.count({ where: { characterId: { in: ["c_idle1", "c_idle2"] } } }), 0);
    });

    it("keeps a guest seen just inside the idle limit", async () => {
      await account(prisma, "guest_edge", { guest: true, seenHoursAgo: 71.9 });
      await account(prisma, "guest_past", { guest: true, seenHoursAgo: 72.1 });
      assert.equal(await removeIdleGuests(prisma, { idleHours: 72, now: NOW, isOnline: () => false }), 1);
      assert.deepEqual(
        (await prisma.user.findMany({ select: { id: true } })).map((u) => u.id),
        ["guest_edge"],
      );
    });

    it("never removes an account that is not a guest, however idle", async () => {
      await account(prisma, "u_old", { guest: false, seenHoursAgo: 24 * 365 * 5, characters: ["c_old"] });
      assert.equal(await removeIdleGuests(prisma, { idleHours: 1, now: NOW, isOnline: () => false }), 0);
      assert.equal(await prisma.user.count(), 1);
      assert.equal(await prisma.character.count(), 1);
    });

    it("trade history survives with null party ids", async () => {
      await account(prisma, "guest_trader", { guest: true, seenHoursAgo: 200, characters: ["c_gone"] });
      await account(prisma, "u_partner", { guest: false, seenHoursAgo: 1, characters: ["c_partner"] });
      await prisma.trade.create({
        data: {
          id: "t1",
          initiatorId: "c_gone",
          recipientId: "c_partner",
          initiatorName: "Ngone",
          recipientName: "Npartner",
          initiatorOffer: [{ itemId: "logs", quantity: 1 }],
          recipientOffer: [],
        },
      });
      assert.equal(await removeIdleGuests(prisma, { idleHours: 72, now: NOW, isOnline: () => false }), 1);
      const row = await prisma.trade.findUniqueOrThrow({ where: { id: "t1" } });
      assert.equal(row.initiatorId, null);
      assert.equal(row.recipientId, "c_partner");
      assert.equal(row.initiatorName, "Ngone");
    });

    it("works through more guests than one batch, skipping online ones", async () => {
      const ids = Array.from({ length: 23 }, (_, i) => `guest_${String(i).padStart(2, "0")}`);
      await prisma.user.createMany({ data: ids.map((id) => ({ id, isGuest: true, lastSeenAt: new Date(NOW.getTime() - 80 * HOUR) })) });
      const online = new Set([ids[0], ids[4], ids[5], ids[22]]);
      const removed = await removeIdleGuests(prisma, { idleHours: 72, now: NOW, isOnline: (id) => online.has(id), batchSize: 5 });
      assert.equal(removed, ids.length - online.size);
      assert.deepEqual(
        (await prisma.user.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((u) => u.id),
        [...online].sort(),
      );
    });

    it("startGuestCleanup runs at start, can run again, and stops", async () => {
      // The running cleanup uses the real clock.
      const now = new Date();
      await account(prisma, "guest_stale", { guest: true, seenHoursAgo: 24 * 30, from: now });
      await account(prisma, "guest_fresh", { guest: true, seenHoursAgo: 1, from: now });
      const cleanup = startGuestCleanup(prisma, { idleHours: 72, isOnline: () => false, logger: silentLogger });
      assert.equal(await cleanup.runNow(), 1, "the start-up run and runNow are one run");
      assert.deepEqual(
        (await prisma.user.findMany({ select: { id: true } })).map((u) => u.id),
        ["guest_fresh"],
      );
      await account(prisma, "guest_stale2", { guest: true, seenHoursAgo: 24 * 30, from: now });
      assert.equal(await cleanup.runNow(), 1);
      await cleanup.stop();
    });
  });
}

describe("guest activity", function () {
  this.timeout(30_000);
  it("joining and leaving the world counts as being seen", async () => {
    const { startTestServer } = await import("../helpers/server.js");
    const { guestToken, joinWorld } = await import("../helpers/worldClient.js");
    const { leaveAndSettle } = await import("../helpers/worldRoom.js");
    const server = await startTestServer();
    try {
      const who = await guestToken(server);
      const long = new Date(Date.now() - 1000 * 3600 * 24 * 30);
      await server.ctx.db.prisma.user.update({ where: { id: who.accountId }, data: { lastSeenAt: long } });
      const p = await joinWorld(server, {}, who);
      const seen = await server.ctx.db.prisma.user.findUniqueOrThrow({ where: { id: who.accountId } });
      assert.ok(seen.lastSeenAt > long, "seen on join");
      await server.ctx.db.prisma.user.update({ where: { id: who.accountId }, data: { lastSeenAt: long } });
      await leaveAndSettle(p);
      const left = await server.ctx.db.prisma.user.findUniqueOrThrow({ where: { id: who.accountId } });
      assert.ok(left.lastSeenAt > long, "seen on leave");
      assert.equal(await removeIdleGuests(server.ctx.db.prisma, { idleHours: 1, isOnline: () => false }), 0);
    } finally {
      await server.close();
    }
  });
});
