import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { cp, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../../src/db/client.js";
import { migrationsFingerprint } from "../../src/db/migrate.js";
import { silentLogger } from "../../src/logger.js";
import { MIGRATIONS_DIR } from "../../src/paths.js";
import { captureLogs, LEVEL } from "../helpers/logCapture.js";

/**
 * A new embedded database is a copy of the migrated template (src/db/pgliteTemplate.ts): made once
 * in its folder, named for the migrations and PGlite it holds, and never trusted when damaged.
 */
describe("the embedded database's migrated template", function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "arena-template-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const templatesIn = async () => (await readdir(path.join(dir, "templates"))).filter((f) => f.endsWith(".tar"));
  const migrationNames = async () => (await readdir(MIGRATIONS_DIR, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);

  it("is made by the first new database, named for the migrations; the next new database is a copy with every migration and nothing else", async () => {
    const templateDir = path.join(dir, "templates");
    const logs = captureLogs();
    const first = await openDatabase({ logger: logs.logger, templateDir });
    await first.close();
    const made = await templatesIn();
    assert.equal(made.length, 1);
    assert.match(made[0], new RegExp(`^pglite-[0-9.]+-${migrationsFingerprint()}\\.tar$`));
    assert.ok(logs.lines.some((l) => l.msg === "embedded database template made"));

    // A data folder of its own, copied from the template's folder: migrated, with no rows, and kept across a reopen.
    const dataDir = path.join(dir, "data");
    const db = await openDatabase({ logger: silentLogger, templateDir, dataDir });
    assert.ok(existsSync(path.join(templateDir, made[0].replace(/\.tar$/, ""), "PG_VERSION")), "the template's data folder");
    const applied = await db.sql.query<{ name: string }>(`SELECT "name" FROM "_arena_migrations" ORDER BY "name"`);
    assert.deepEqual(
      applied.map((r) => r.name),
      (await migrationNames()).sort(),
    );
    assert.deepEqual(await db.sql.query(`SELECT count(*)::int AS n FROM "characters"`), [{ n: 0 }]);
    await db.sql.query(`INSERT INTO "users" ("id") VALUES ('u_kept')`);
    await db.close();
    const again = await openDatabase({ logger: silentLogger, templateDir, dataDir });
    assert.deepEqual(await again.sql.query(`SELECT "id" FROM "users"`), [{ id: "u_kept" }]);
    await again.close();
    assert.equal((await templatesIn()).length, 1, "made once");
  });

  it("another set of migrations is another template: a fingerprint of every migration's name and text", async () => {
    const copy = path.join(dir, "migrations");
    await cp(MIGRATIONS_DIR, copy, { recursive: true });
    const before = migrationsFingerprint(copy);
    assert.equal(before, migrationsFingerprint());
    const last = (await migrationNames()).sort().at(-1)!;
    await writeFile(path.join(copy, last, "migration.sql"), "-- changed\n", { flag: "a" });
    assert.notEqual(migrationsFingerprint(copy), before);
  });

  it("a damaged template is not loaded: the database is made anew, with a warning, and the template made again", async () => {
    const templateDir = path.join(dir, "templates");
    const first = await openDatabase({ logger: silentLogger, templateDir });
    await first.close();
    const [name] = await templatesIn();
    // The file of the right name now holds something else (a disk fault, a copy cut short).
    await writeFile(path.join(templateDir, name), "not a tar of a database");
    const logs = captureLogs();
    const db = await openDatabase({ logger: logs.logger, templateDir });
    assert.deepEqual(await db.sql.query(`SELECT count(*)::int AS n FROM "_arena_migrations"`), [{ n: (await migrationNames()).length }]);
    await db.close();
    assert.ok(
      logs.lines.some((l) => l.level === LEVEL.warn && /template could not be loaded/.test(String(l.msg))),
      "a warning names the template",
    );
    // The damaged file is gone; the next new database makes a sound one and is a copy of it.
    assert.deepEqual(await templatesIn(), []);
    const next = await openDatabase({ logger: silentLogger, templateDir });
    await next.close();
    assert.deepEqual(await templatesIn(), [name]);
  });

  it("a damaged template folder is not copied into service: the data folder is made anew, with a warning", async () => {
    const templateDir = path.join(dir, "templates");
    const first = await openDatabase({ logger: silentLogger, templateDir, dataDir: path.join(dir, "first") });
    await first.close();
    const [name] = await templatesIn();
    // The folder lost its databases' files (a copy cut short).
    await rm(path.join(templateDir, name.replace(/\.tar$/, ""), "base"), { recursive: true });
    const logs = captureLogs();
    const db = await openDatabase({ logger: logs.logger, templateDir, dataDir: path.join(dir, "second") });
    assert.deepEqual(await db.sql.query(`SELECT count(*)::int AS n FROM "_arena_migrations"`), [{ n: (await migrationNames()).length }]);
    await db.close();
    assert.ok(logs.lines.some((l) => l.level === LEVEL.warn && /template could not be loaded/.test(String(l.msg))));
  });
});
