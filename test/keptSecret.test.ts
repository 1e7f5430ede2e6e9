import assert from "node:assert/strict";
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { ConfigError, loadConfig } from "../src/config.js";
import { ROOT } from "../src/paths.js";
import { keptSecret } from "../src/keptSecret.js";

const run = promisify(execFile);

describe("the token secret kept in the data folder (JWT_SECRET unset, outside production)", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "arena-secret-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("is made once (mode 0600) and read back the same by every later start", async () => {
    const dataDir = path.join(dir, "data");
    const first = loadConfig({ DATA_DIR: dataDir });
    const second = loadConfig({ DATA_DIR: dataDir, NODE_ENV: "test" });
    assert.equal(first.jwtSecretFile, path.join(dataDir, "jwt-secret"));
    assert.equal(second.jwtSecret, first.jwtSecret);
    assert.ok(first.jwtSecret.length >= 32);
    assert.equal((await stat(first.jwtSecretFile!)).mode & 0o777, 0o600);
    assert.equal((await readFile(first.jwtSecretFile!, "utf8")).trim(), first.jwtSecret);
    assert.notEqual(loadConfig({ DATA_DIR: path.join(dir, "other") }).jwtSecret, first.jwtSecret, "each data folder its own");
  });

  it("JWT_SECRET, when set, is used and nothing is written", async () => {
    const c = loadConfig({ DATA_DIR: dir, JWT_SECRET: "s".repeat(40) });
    assert.equal(c.jwtSecret, "s".repeat(40));
    assert.equal(c.jwtSecretFile, undefined);
    await assert.rejects(stat(path.join(dir, "jwt-secret")), /ENOENT/);
  });

  it("production never makes one: JWT_SECRET is required", () => {
    assert.throws(() => loadConfig({ NODE_ENV: "production", DATABASE_URL: "postgres://h/db", DATA_DIR: dir }), /JWT_SECRET is required in production/);
  });

  it("a file others may read is closed to them; a file too short is refused naming it", async () => {
    const file = path.join(dir, "jwt-secret");
    await writeFile(file, "k".repeat(48));
    await chmod(file, 0o644);
    assert.equal(keptSecret(dir).secret, "k".repeat(48));
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    await writeFile(file, "short\n");
    assert.throws(
      () => loadConfig({ DATA_DIR: dir }),
      (err: Error) => err instanceof ConfigError && err.message.includes(file) && /set JWT_SECRET/.test(err.message),
    );
  });

  it("processes starting at once on a new folder agree on one secret", async () => {
    const script = `import { keptSecret } from ${JSON.stringify(path.join(ROOT, "src", "keptSecret.ts"))}; process.stdout.write(keptSecret(process.argv[1]).secret);`;
    const made = await Promise.all(
      Array.from({ length: 4 }, () =>
        run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, path.join(dir, "new")], { cwd: ROOT }).then((r) => r.stdout),
      ),
    );
    assert.equal(made.length, 4);
    assert.equal(new Set(made).size, 1, made.join(" "));
    assert.equal(made[0], keptSecret(path.join(dir, "new")).secret);
  });
});
