import assert from "node:assert/strict";
import { SKILLS } from "../../src/protocol/index.js";
import { HISCORE_SKILLS, HISCORES_PAGE_SIZE, type HiscoreSkill } from "../../src/features/hiscores/hiscoresRepo.js";
import { DATABASE_KINDS, openTestDb, type TestDb } from "../helpers/database.js";
import { rest } from "../helpers/rest.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

/** A character as the suite made it: its account's standing, and its levels and xp by skill. */
interface Made {
  id: string;
  name: string;
  isAgent: boolean;
  counted: boolean;
  levels: Record<string, number>;
  xp: Record<string, number>;
}

/** A seeded random source (mulberry32): the same characters every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every counted character ranked by brute force: 1 + how many counted characters are strictly ahead. */
function bruteForce(made: Made[], skill: HiscoreSkill) {
  const counted = made.filter((m) => m.counted);
  const figures = (m: Made) =>
    skill === "overall"
      ? { level: SKILLS.reduce((n, s) => n + m.levels[s], 0), xp: SKILLS.reduce((n, s) => n + m.xp[s], 0) }
      : { level: m.levels[skill], xp: m.xp[skill] };
  const ahead = (a: Made, b: Made) => {
    const [fa, fb] = [figures(a), figures(b)];
    return skill === "overall" ? fa.level > fb.level || (fa.level === fb.level && fa.xp > fb.xp) : fa.xp > fb.xp;
  };
  return counted
    .map((m) => ({ rank: 1 + counted.filter((o) => ahead(o, m)).length, characterId: m.id, name: m.name, ...figures(m), isAgent: m.isAgent }))
    .sort((a, b) => a.rank - b.rank || (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0));
}

/** 1,000 characters straight into the database: some agents, some of staff accounts, some of banned ones, many ties. */
async function makeCharacters(t: TestDb): Promise<Made[]> {
  const next = random(48);
  const made: Made[] = [];
  for (let i = 0; i < 1000; i++) {
    const levels: Record<string, number> = {};
    const xp: Record<string, number> = {};
    for (const s of SKILLS) {
      // Coarse figures: many characters tie, as they do in a young world.
      levels[s] = 1 + Math.floor(next() * 5) * 10;
      xp[s] = Math.floor(next() * 8) * 1000;
    }
    const staff = i % 97 === 5;
    const banned = i % 89 === 7;
    made.push({ id: `c_hs${i}`, name: `Ranker ${String(i).padStart(4, "0")}`, isAgent: i % 7 === 0, counted: !staff && !banned, levels, xp });
  }
  const rows = made.map((m, i) => {
    const role = i % 97 === 5 ? "moderator" : "player";
    return { user: `('a_hs${i}', ARRAY['${role}']::text[], ${i % 3 === 0})`, m };
  });
  for (let at = 0; at < rows.length; at += 250) {
    const chunk = rows.slice(at, at + 250);
    await t.db.sql.exec(`INSERT INTO users (id, roles, "isGuest") VALUES ${chunk.map((r) => r.user).join(", ")}`);
    const columns = SKILLS.flatMap((s) => [`"${s}Level"`, `"${s}Xp"`]).join(", ");
    const values = chunk.map(({ m }, j) => {
      const figures = SKILLS.flatMap((s) => [m.levels[s], m.xp[s]]).join(", ");
      return `('${m.id}', 'a_hs${at + j}', '${m.name}', ${m.isAgent}, now(), ${figures})`;
    });
    await t.db.sql.exec(`INSERT INTO characters (id, "accountId", name, "isAgent", "updatedAt", ${columns}) VALUES ${values.join(", ")}`);
  }
  // A ban in force, a lifted one (counted again) and one that ended (counted again).
  await t.db.sql.exec(`INSERT INTO sanctions (id, "accountId", kind, reason, "byName", "targetName")
    SELECT 's_hs' || n, 'a_hs' || n, 'ban', 'cheating', 'Mod', 'Ranker' FROM generate_series(0, 999) n WHERE n % 89 = 7`);
  await t.db.sql.exec(
    `INSERT INTO sanctions (id, "accountId", kind, reason, "byName", "targetName", "liftedAt") VALUES ('s_lifted', 'a_hs1', 'ban', 'x', 'Mod', 'Ranker', now())`,
  );
  await t.db.sql.exec(
    `INSERT INTO sanctions (id, "accountId", kind, reason, "byName", "targetName", "createdAt", "endsAt") VALUES ('s_ended', 'a_hs2', 'ban', 'x', 'Mod', 'Ranker', now() - interval '2 days', now() - interval '1 day')`,
  );
  await t.db.sql.exec(`INSERT INTO sanctions (id, "accountId", kind, reason, "byName", "targetName") VALUES ('s_mute', 'a_hs3', 'mute', 'x', 'Mod', 'Ranker')`);
  return made;
}

/** A settled duel as the suite wrote it. */
interface MadeDuel {
  winner: Made;
  loser: Made;
  loserValue: number;
}

/** 400 settled duels between the suite's characters (their `duels` rows), some with counted characters on one side only. */
async function makeDuels(t: TestDb, made: Made[]): Promise<MadeDuel[]> {
  const next = random(7);
  const pick = () => made[Math.floor(next() * 60)]!; // few duellists: many duels each, many ties
  const duels: MadeDuel[] = [];
  while (duels.length < 400) {
    const [winner, loser] = [pick(), pick()];
    if (winner === loser) continue;
    duels.push({ winner, loser, loserValue: Math.floor(next() * 4) * 50 });
  }
  const values = duels.map(
    (d, i) =>
      `('d_hs${i}', '${d.winner.id}', '${d.loser.id}', '${d.winner.name}', '${d.loser.name}', '[]', '[]', 0, ${d.loserValue}, '{}', 1, '${i % 5 ? "win" : "forfeit"}')`,
  );
  await t.db.sql.exec(
    `INSERT INTO duels (id, "winnerId", "loserId", "winnerName", "loserName", "winnerStake", "loserStake", "winnerValue", "loserValue", rules, "arenaId", outcome) VALUES ${values.join(", ")}`,
  );
  return duels;
}

/** The duel rankings by brute force: counted characters with a duel, by wins then stakes won, equal ones sharing a rank. */
function duelBruteForce(duels: MadeDuel[]) {
  const totals = new Map<Made, { wins: number; losses: number; stakesWon: number }>();
  const of = (m: Made) => totals.get(m) ?? totals.set(m, { wins: 0, losses: 0, stakesWon: 0 }).get(m)!;
  for (const d of duels) {
    of(d.winner).wins++;
    of(d.winner).stakesWon += d.loserValue;
    of(d.loser).losses++;
  }
  const rows = [...totals].filter(([m]) => m.counted);
  const ahead = (a: { wins: number; stakesWon: number }, b: { wins: number; stakesWon: number }) =>
    a.wins > b.wins || (a.wins === b.wins && a.stakesWon > b.stakesWon);
  return rows
    .map(([m, t]) => ({ rank: 1 + rows.filter(([, o]) => ahead(o, t)).length, characterId: m.id, name: m.name, ...t, isAgent: m.isAgent }))
    .sort((a, b) => a.rank - b.rank || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

for (const kind of DATABASE_KINDS) {
  describe(`hiscores over REST (${kind})`, function () {
    this.timeout(180_000);
    let t: TestDb;
    let server: TestServer;
    let made: Made[];
    let duels: MadeDuel[];
    const get = (path: string) => rest(server, "GET", path);

    before(async () => {
      t = await openTestDb(kind);
      server = await startTestServer({ db: t.db });
      made = await makeCharacters(t);
      duels = await makeDuels(t, made);
    });
    after(async () => {
      await server?.close();
      await t?.cleanup();
    });

    it("ranks 1,000 characters as a brute-force ranking does: overall and three skills, every page", async () => {
      for (const skill of ["overall", "woodcutting", "attack", "runecrafting"] as const) {
        const expected = bruteForce(made, skill);
        const seen = [];
        for (let page = 1; ; page++) {
          const res = await get(`/api/v1/hiscores?skill=${skill}&page=${page}`);
          assert.equal(res.status, 200, JSON.stringify(res.body));
          assert.equal(res.body.total, expected.length);
          assert.equal(res.body.pageSize, HISCORES_PAGE_SIZE);
          seen.push(...res.body.entries);
          if (page >= res.body.pages) break;
        }
        assert.equal(seen.length, expected.length, skill);
        // Within a rank the order is by name; the ranks themselves are the brute force's.
        assert.deepEqual(seen, expected, skill);
      }
    });

    it("leaves out staff and banned accounts, counts a lifted or ended ban, marks agents", async () => {
      const all = (await get("/api/v1/hiscores?page=1")).body;
      const counted = made.filter((m) => m.counted).length;
      assert.ok(counted < 1000 && counted > 950);
      assert.equal(all.total, counted);
      assert.equal((await get("/api/v1/hiscores/players/Ranker%200005")).status, 404, "a moderator's character");
      assert.equal((await get("/api/v1/hiscores/players/Ranker%200007")).status, 404, "a banned account's character");
      for (const name of ["Ranker 0001", "Ranker 0002", "Ranker 0003"])
        assert.equal((await get(`/api/v1/hiscores/players/${encodeURIComponent(name)}`)).status, 200, name);
      const agent = await get("/api/v1/hiscores/players/ranker%200014");
      assert.equal(agent.body.isAgent, true);
      assert.equal(agent.body.name, "Ranker 0014", "found in any case");
    });

    it("a character's ranks in every skill and overall match the rankings", async () => {
      const expected = new Map(HISCORE_SKILLS.map((skill) => [skill, new Map(bruteForce(made, skill).map((e) => [e.characterId, e]))]));
      for (const m of made
        .filter((x) => x.counted)
        .slice(0, 1000)
        .filter((_, i) => i % 97 === 0)) {
        const res = await get(`/api/v1/hiscores/players/${encodeURIComponent(m.name)}`);
        assert.equal(res.status, 200);
        assert.equal(res.body.characterId, m.id);
        assert.deepEqual(Object.keys(res.body.ranks).sort(), [...HISCORE_SKILLS].sort());
        for (const skill of HISCORE_SKILLS) {
          const e = expected.get(skill)!.get(m.id)!;
          assert.deepEqual(res.body.ranks[skill], { rank: e.rank, level: e.level, xp: e.xp }, `${m.name} ${skill}`);
        }
      }
    });

    it("ranks the duellists by wins, then the worth of the stakes won, as a brute-force count of the duels does", async () => {
      const expected = duelBruteForce(duels);
      assert.ok(
        expected.some((e) => e.rank === expected[expected.indexOf(e) + 1]?.rank),
        "some duellists tie",
      );
      const seen = [];
      for (let page = 1; ; page++) {
        const res = await get(`/api/v1/hiscores/duels?page=${page}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.total, expected.length);
        seen.push(...res.body.entries);
        if (page >= res.body.pages) break;
      }
      assert.deepEqual(seen, expected);
      assert.ok(!seen.some((e) => e.name === "Ranker 0005" || e.name === "Ranker 0007"), "staff and banned duellists are left out");
      for (const query of ["page=0", "page=x", "skill=attack"]) assert.equal((await get(`/api/v1/hiscores/duels?${query}`)).status, 400, query);
    });

    it("refuses a bad query with 400 INVALID_PAYLOAD, and answers a page past the end with no entries", async () => {
      for (const query of [
        "skill=sailing",
        "skill=",
        "page=0",
        "page=-1",
        "page=1.5",
        "page=abc",
        "page=10001",
        "page=1e400",
        "skill=overall&extra=1",
        "skill[]=attack",
      ]) {
        const res = await get(`/api/v1/hiscores?${query}`);
        assert.equal(res.status, 400, query);
        assert.equal(res.body.error.code, "INVALID_PAYLOAD", query);
      }
      const past = await get("/api/v1/hiscores?skill=mining&page=999");
      assert.equal(past.status, 200);
      assert.deepEqual(past.body.entries, []);
      assert.equal(past.body.total, made.filter((m) => m.counted).length);
      const long = await get(`/api/v1/hiscores/players/${"x".repeat(65)}`);
      assert.equal(long.status, 400);
      const nobody = await get("/api/v1/hiscores/players/Nobody%20Here");
      assert.equal(nobody.status, 404);
      assert.equal(nobody.body.error.code, "CHARACTER_NOT_FOUND");
      // A name that is SQL stays a name.
      assert.equal((await get(`/api/v1/hiscores/players/${encodeURIComponent("x' OR '1'='1")}`)).status, 404);
    });
  });
}
