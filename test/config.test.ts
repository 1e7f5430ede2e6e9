import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { ConfigError, loadConfig, publicSettings } from "../src/config.js";
import { ROOT } from "../src/paths.js";

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    assert.ok(err instanceof ConfigError, `expected ConfigError, got ${err}`);
    return err.message;
  }
  assert.fail(`expected ${JSON.stringify(env)} to be refused`);
}

const SECRET = "x".repeat(32);

describe("configuration", () => {
  it("has working defaults for development", () => {
    const c = loadConfig({});
    assert.equal(c.port, 5555);
    assert.equal(c.nodeEnv, "development");
    assert.equal(c.world, path.join(ROOT, "world"));
    assert.equal(c.dataDir, path.join(ROOT, ".data"));
    assert.equal(c.saveInterval, 60);
    assert.equal(c.agentApiUrl, "http://localhost:4001");
    assert.equal(c.publicApiUrl, "http://localhost:5555");
    assert.equal(c.publicWsUrl, "ws://localhost:5555/ws");
    assert.equal(c.jwtSecretFile, path.join(ROOT, ".data", "jwt-secret"));
    assert.ok(c.jwtSecret.length >= 32);
    assert.equal(c.databaseUrl, undefined);
  });

  it("names the variable and what it expects, in one line", () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ PORT: "http" }, /^Invalid configuration: PORT must be a whole number from 0 to 65535, got "http"$/],
      [{ PORT: "70000" }, /PORT must be a whole number/],
      [{ NODE_ENV: "staging" }, /NODE_ENV must be development, production or test/],
      [{ SAVE_INTERVAL: "0" }, /SAVE_INTERVAL must be a whole number from 1 to 3600/],
      [{ SAVE_INTERVAL: "2.5" }, /SAVE_INTERVAL/],
      [{ DATABASE_URL: "mysql://x" }, /DATABASE_URL must use postgres or postgresql/],
      [{ DATABASE_URL: "not a url" }, /DATABASE_URL must be a URL/],
      [{ PUBLIC_WS_URL: "http://x" }, /PUBLIC_WS_URL must use ws or wss/],
      [{ REDIS_URL: "http://x" }, /REDIS_URL must use redis or rediss/],
      [{ REDIS_URL: "redis://r:6379" }, /REDIS_URL runs this process in a cluster.*set DATABASE_URL/],
      [{ WORLDS: "0" }, /WORLDS as a count must be from 1 to 100/],
      [{ WORLDS: "301,301" }, /world 301 is listed twice/],
      [{ WORLDS: "abc" }, /WORLDS: a world id must be a whole number from 1 to 9999, got "abc"/],
      [{ WORLDS: "301:Big:0" }, /the capacity of world 301 must be a whole number from 1 to 10000/],
      [{ WORLD_CAPACITY: "-5" }, /WORLD_CAPACITY must be a whole number from 1 to 10000/],
      [{ PUBLIC_ADDRESS: "ws://host:1" }, /PUBLIC_ADDRESS must be host\[:port\]\[\/path\] without a scheme/],
      [{ CLUSTER_ADDRESS: "http://game-2:5562" }, /CLUSTER_ADDRESS must be host:port without a scheme or path/],
      [{ CLUSTER_ADDRESS: "game-2" }, /CLUSTER_ADDRESS must be host:port/],
      [{ SKIP_MANIFESTS: "maybe" }, /SKIP_MANIFESTS must be true or false/],
      [{ USE_LOCAL_POSTGRES: "2" }, /USE_LOCAL_POSTGRES must be true or false/],
      [{ LOG_LEVEL: "loud" }, /LOG_LEVEL must be one of/],
      [{ CORS_ORIGINS: "https://ok.example,nope" }, /CORS_ORIGINS must be a comma-separated list of origins/],
      [{ JWT_SECRET: "short" }, /JWT_SECRET must be at least 32 characters/],
      [{ NODE_ENV: "production", JWT_SECRET: SECRET }, /DATABASE_URL is required in production/],
      [{ NODE_ENV: "production", DATABASE_URL: "postgres://h/db" }, /JWT_SECRET is required in production/],
      [{ USE_LOCAL_POSTGRES: "true", DATABASE_URL: "postgres://h/db" }, /exclusive/],
    ];
    for (const [env, pattern] of cases) {
      const message = configError(env);
      assert.match(message, pattern, JSON.stringify(env));
      assert.ok(!message.includes("\n"), "one line");
    }
  });

  it("worlds: one world by default, a count, or a list with names and capacities; REDIS_URL with PostgreSQL is a cluster", () => {
    assert.deepEqual(loadConfig({}).worlds, [{ id: 1, name: "World 1", capacity: 2000 }]);
    assert.equal(loadConfig({}).cluster, undefined);
    assert.deepEqual(
      loadConfig({ WORLDS: "3", WORLD_CAPACITY: "50" }).worlds.map((w) => [w.id, w.capacity]),
      [
        [1, 50],
        [2, 50],
        [3, 50],
      ],
    );
    assert.deepEqual(loadConfig({ WORLDS: " 301:, 302:Trade world:500 ,303::7" }).worlds, [
      { id: 301, name: "World 301", capacity: 2000 },
      { id: 302, name: "Trade world", capacity: 500 },
      { id: 303, name: "World 303", capacity: 7 },
    ]);
    const c = loadConfig({ REDIS_URL: "redis://r:6379", DATABASE_URL: "postgres://h/db", PUBLIC_ADDRESS: "game.example.com/p2/" });
    assert.deepEqual(c.cluster, { redisUrl: "redis://r:6379", publicAddress: "game.example.com/p2", address: "127.0.0.1:5555" });
    const named = loadConfig({ REDIS_URL: "redis://r:6379", DATABASE_URL: "postgres://h/db", PORT: "5562", CLUSTER_ADDRESS: " game-2:5562 " });
    assert.equal(named.cluster?.address, "game-2:5562");
  });

  it("accepts a complete production environment", () => {
    const c = loadConfig({
      NODE_ENV: "production",
      DATABASE_URL: "postgresql://u:p@db:5432/game",
      JWT_SECRET: SECRET,
      PUBLIC_API_URL: "https://api.game.example/",
      SAVE_INTERVAL: "30",
    });
    assert.equal(c.nodeEnv, "production");
    assert.equal(c.jwtSecretFile, undefined);
    assert.equal(c.publicApiUrl, "https://api.game.example");
    assert.equal(c.publicWsUrl, "wss://api.game.example/ws");
    assert.equal(c.saveInterval, 30);
  });

  it("honours DISABLE_RATE_LIMIT in development only", () => {
    assert.equal(loadConfig({ DISABLE_RATE_LIMIT: "true" }).rateLimitDisabled, true);
    assert.equal(loadConfig({ DISABLE_RATE_LIMIT: "true", NODE_ENV: "test" }).rateLimitDisabled, false);
    assert.equal(
      loadConfig({ DISABLE_RATE_LIMIT: "true", NODE_ENV: "production", DATABASE_URL: "postgres://h/d", JWT_SECRET: SECRET }).rateLimitDisabled,
      false,
    );
  });

  it("treats CI as SKIP_ASSETS", () => {
    assert.equal(loadConfig({}).skipAssets, false);
    assert.equal(loadConfig({ CI: "true" }).skipAssets, true);
    assert.equal(loadConfig({ SKIP_ASSETS: "1" }).skipAssets, true);
  });

  it("public settings carry no secret", () => {
    const c = loadConfig({
      JWT_SECRET: SECRET,
      ADMIN_CODE: "admin-code-123",
      IDP_APP_SECRET: "idp-secret-456",
      VOICE_API_KEY: "vk-789",
      VOICE_API_SECRET: "vs-000",
      PUBLIC_IDP_APP_ID: "app-1",
      DATABASE_URL: "postgres://user:dbpass@h/d",
    });
    const text = JSON.stringify(publicSettings(c));
    for (const secret of [SECRET, "admin-code-123", "idp-secret-456", "vk-789", "vs-000", "dbpass"]) assert.ok(!text.includes(secret), secret);
    assert.equal(publicSettings(c).PUBLIC_IDP_APP_ID, "app-1");
  });

  it("an invalid variable stops the server with one clear line and exit code 1", async function () {
    this.timeout(30_000);
    const child = spawn(process.execPath, ["--import", "tsx", "src/index.ts"], {
      cwd: ROOT,
      env: { ...process.env, PORT: "not-a-port", NODE_ENV: "development" },
    });
    let stderr = "";
    let stdout = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.stdout.on("data", (d) => (stdout += d));
    const exitCode = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    assert.equal(exitCode, 1);
    assert.equal(stderr.trim(), 'Invalid configuration: PORT must be a whole number from 0 to 65535, got "not-a-port"');
    assert.equal(stdout, "");
  });
});
