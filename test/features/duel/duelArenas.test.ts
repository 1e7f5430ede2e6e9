import assert from "node:assert/strict";
import { arenasOf, buildDuelArenas, inArena } from "../../../src/features/duel/duelArenas.js";
import { duel } from "../../../src/features/duel/index.js";
import { LoadContext } from "../../../src/manifests/context.js";
import { loadGameData } from "../../../src/manifests/index.js";
import { silentLogger } from "../../../src/logger.js";
import { createWorld } from "../../../rooms/worldSetup.js";
import { goodFixture } from "../../manifests/fixture.js";
import { captureLogger, cleanup, tempDir, writeFiles } from "../../manifests/support.js";

const FILE = "duel-arenas.json";

const arena = (arenaId: unknown, cx: number, cz: number, extra: Record<string, unknown> = {}) => ({
  arenaId,
  center: { x: cx, z: cz },
  size: 16,
  spawnPoints: [
    { x: cx - 4, y: 0, z: cz },
    { x: cx + 4, y: 0, z: cz },
  ],
  trapdoorPositions: [{ x: cx - 7, z: cz - 4 }],
  ...extra,
});

function build(json: unknown) {
  const ctx = new LoadContext("/nowhere", silentLogger, true);
  return { ...buildDuelArenas(ctx, FILE, json), warnings: ctx.warnings };
}

describe("manifests: duel-arenas.json", function () {
  it("reads arenas as tiles (positions rounded like the world's tileOf), with the lobby and hospital", function () {
    const r = build({
      arenas: [
        arena(1, 210, 210),
        arena(2, 250.4, 209.6, {
          spawnPoints: [
            { x: 246.5, z: 210 },
            { x: 254.49, y: 3, z: 210.2 },
          ],
        }),
      ],
      lobby: { center: { x: 250, z: 295 }, size: { width: 60, depth: 30 }, spawnPoint: { x: 250, y: 0, z: 295 } },
      hospital: { center: { x: 210.2, z: 295 }, size: { width: 20, depth: 15 } },
      constants: { arenaSize: 16, wallColor: "0x8b7355" },
    });
    assert.deepEqual(r.warnings, []);
    assert.deepEqual(
      r.arenas.map(({ raw: _raw, ...a }) => a),
      [
        {
          id: 1,
          center: { x: 210, z: 210 },
          size: 16,
          spawnPoints: [
            { x: 206, z: 210 },
            { x: 214, z: 210 },
          ],
          trapdoors: [{ x: 203, z: 206 }],
        },
        {
          id: 2,
          center: { x: 250, z: 210 },
          size: 16,
          spawnPoints: [
            { x: 247, z: 210 },
            { x: 254, z: 210 },
          ],
          trapdoors: [{ x: 243, z: 206 }],
        },
      ],
    );
    assert.equal(r.arenas[0]!.raw.arenaId, 1);
    assert.deepEqual(r.places, {
      lobby: { center: { x: 250, z: 295 }, width: 60, depth: 30, spawnPoint: { x: 250, z: 295 } },
      hospital: { center: { x: 210, z: 295 }, width: 20, depth: 15 },
    });
  });

  it("skips an arena with fewer than 2 spawn points, a spawn point outside its square, a bad record or a repeated id", function () {
    const r = build({
      arenas: [
        arena(1, 0, 0, { spawnPoints: [{ x: 0, z: 0 }] }),
        arena(2, 100, 100, {
          spawnPoints: [
            { x: 100, z: 100 },
            { x: 109, z: 100 },
          ],
        }),
        arena("three", 0, 0),
        arena(4, 50, 50),
        arena(4, 60, 60),
        { center: { x: 0, z: 0 } },
      ],
      lobby: { center: { x: 0 } },
    });
    assert.deepEqual(
      r.arenas.map((a) => [a.id, a.center.x]),
      [[4, 50]],
    );
    assert.equal(r.places.lobby, undefined);
    const expected = [
      /^duel-arenas\.json: arena 1 has 1 spawn point\(s\), a duel needs 2; skipped$/,
      /^duel-arenas\.json: arena 2: spawn point \(109, 100\) is outside its 16-tile square around \(100, 100\); skipped$/,
      /^duel-arenas\.json: arena three is invalid/,
      /^duel-arenas\.json: arena 4 is defined twice; duplicate skipped$/,
      /^duel-arenas\.json: arena #5 is invalid/,
      /^duel-arenas\.json: lobby is invalid/,
    ];
    assert.equal(r.warnings.length, expected.length, r.warnings.join("\n"));
    expected.forEach((re, i) => assert.match(r.warnings[i]!, re));
  });

  it("a spawn point on the square's edge is inside; one tile beyond is not", function () {
    const a = { center: { x: 10, z: 10 }, size: 16 };
    assert.equal(inArena(a, { x: 18, z: 2 }), true);
    assert.equal(inArena(a, { x: 19, z: 10 }), false);
    assert.equal(inArena(a, { x: 10, z: 1 }), false);
  });

  it("uses the first two of more spawn points, with a warning", function () {
    const r = build({
      arenas: [
        arena(7, 0, 0, {
          spawnPoints: [
            { x: -1, z: 0 },
            { x: 1, z: 0 },
            { x: 2, z: 0 },
          ],
        }),
      ],
    });
    assert.deepEqual(r.arenas[0]!.spawnPoints, [
      { x: -1, z: 0 },
      { x: 1, z: 0 },
    ]);
    assert.deepEqual(r.warnings, ["duel-arenas.json: arena 7 has 3 spawn points; only the first 2 are used"]);
  });

  it("a file of the wrong shape is skipped with a warning, never fatal", function () {
    for (const json of [[], { arenas: "nope" }, null]) {
      const r = build(json);
      assert.deepEqual([r.arenas, r.places], [[], {}]);
      assert.equal(r.warnings.length, 1);
      assert.match(r.warnings[0]!, /^duel-arenas\.json: invalid top-level shape/);
    }
  });

  it("the duel feature reads the file from the game data's extras, once per game data; a world tells what it skipped; without it there are no arenas", async function () {
    const dir = await tempDir();
    try {
      await writeFiles(dir, { ...goodFixture(), [FILE]: { arenas: [arena(3, 20, 20), arena(3, 40, 40)] } });
      const data = await loadGameData(dir, captureLogger().logger);
      assert.deepEqual(data.warnings, [], "the loader leaves the file to the feature");
      assert.ok(data.extras["duel-arenas"]);
      assert.deepEqual(
        arenasOf(data).arenas.map((a) => a.id),
        [3],
      );
      assert.equal(arenasOf(data), arenasOf(data), "read once");
      assert.deepEqual(arenasOf(data).places, {});
      const world = createWorld(data, { features: [duel] });
      assert.deepEqual(
        world.events.drain().flatMap((e) => (e.kind === "contentWarning" ? [e.message] : [])),
        ["duel-arenas.json: arena 3 is defined twice; duplicate skipped"],
      );
    } finally {
      await cleanup(dir);
    }
    const bare = await tempDir();
    try {
      await writeFiles(bare, goodFixture());
      const data = await loadGameData(bare, captureLogger().logger);
      assert.deepEqual([arenasOf(data).arenas, arenasOf(data).places, arenasOf(data).warnings], [[], {}, []]);
    } finally {
      await cleanup(bare);
    }
  });
});
