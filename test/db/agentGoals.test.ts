import assert from "node:assert/strict";
import type { PrismaClient } from "@prisma/client";
import type { Goal } from "../../src/agents/goals.js";
import { recordGoal } from "../../src/db/agentRepo.js";
import { openTestDb, type TestDb } from "../helpers/database.js";

const progress = (made: number) => ({ xpGained: made * 12, gathered: 0, banked: 0, pickedUp: 0, kills: 0, bought: 0, sold: 0, coins: 0, made });
const goal = (id: string, extra: Partial<Goal> = {}): Goal => ({
  id,
  type: "smithing",
  target: "bronze_dagger",
  source: "owner",
  startedTick: 0,
  startXp: {},
  progress: progress(0),
  ...extra,
});

/** An agent's goal rows: the count kept with the goal, the last progress written when it ends. */
describe("agent goal records", function () {
  this.timeout(30_000);
  let t: TestDb;
  let prisma: PrismaClient;

  before(async () => {
    t = await openTestDb("pglite");
    prisma = t.db.prisma;
    await prisma.user.create({ data: { id: "acc1" } });
    await prisma.character.create({ data: { id: "c1", accountId: "acc1", name: "Smith" } });
    await prisma.agentMapping.create({ data: { agentId: "ag1", characterId: "c1", ownerAccountId: "acc1", name: "Smith" } });
  });
  after(async () => {
    await t.cleanup();
  });

  it("keeps a goal's count, and ends the previous goal with the progress it reached", async () => {
    const first = goal("g1", { amount: 5 });
    await recordGoal(prisma, "ag1", first);
    const row = await prisma.agentGoal.findUniqueOrThrow({ where: { id: "g1" } });
    assert.deepEqual(row.params, { source: "owner", count: 5 });
    first.progress = progress(5);
    first.completed = true;
    await recordGoal(prisma, "ag1", goal("g2"), "completed", first);
    const ended = await prisma.agentGoal.findUniqueOrThrow({ where: { id: "g1" } });
    assert.equal(ended.status, "completed");
    assert.deepEqual(ended.progress, progress(5));
    const next = await prisma.agentGoal.findUniqueOrThrow({ where: { id: "g2" } });
    assert.equal(next.status, "active");
    assert.deepEqual(next.params, { source: "owner" }, "no count: no end");
    // Ending without the previous goal in hand keeps the last progress written.
    await recordGoal(prisma, "ag1", null);
    assert.deepEqual((await prisma.agentGoal.findUniqueOrThrow({ where: { id: "g2" } })).progress, progress(0));
  });
});
