/**
 * PM2: the game as a cluster on one machine, one server process per core, each serving its share
 * of the same numbered worlds (docs/DEPLOYMENT.md, "PM2"). The processes share one Redis and one
 * PostgreSQL, given as for any cluster:
 *
 *   export REDIS_URL=redis://127.0.0.1:6379 DATABASE_URL=postgres://arena:secret@127.0.0.1:5432/arena \
 *          JWT_SECRET=$(openssl rand -base64 48) WORLDS=1,2,3,4
 *   pm2 start ecosystem.config.cjs        # pm2 itself: npm install -g pm2 (it is not a dependency here)
 *   pm2 status; pm2 logs; pm2 stop all    # each process saves its players and exits
 *   pm2 save && pm2 startup               # start them again at boot
 *
 * Read here, and only here (the server reads its own settings, src/config.ts):
 *   ARENA_PROCESSES       how many processes (default: one per core, os.availableParallelism())
 *   ARENA_BASE_PORT       the first one's PORT (default 5561); process n listens on ARENA_BASE_PORT + n - 1
 *   ARENA_PUBLIC_ADDRESS  each one's PUBLIC_ADDRESS, `{n}` and `{port}` replaced: `game.example.com/p{n}`
 *                         behind the nginx of docs/DEPLOYMENT.md, `10.0.0.7:{port}` when players reach the
 *                         ports themselves (default: the server's own, this machine's host name and PORT)
 *
 * Each process is node running src/launch.mjs (what `npm start` runs), as PM2's direct child: no
 * npm or shell in between to swallow signals. `pm2 stop`/`restart`/`reload` send SIGINT (PM2's
 * signal, set for its whole daemon by PM2_KILL_SIGNAL), which the server takes as it takes SIGTERM:
 * it saves every player, closes the database and exits; PM2 waits up to 30 s for that (the server's
 * own deadline is 25 s) before SIGKILL. A process that exits, a scheduled restart's exit 0
 * included, is started again.
 */
const os = require("node:os");

const processes = Number(process.env.ARENA_PROCESSES || (os.availableParallelism ? os.availableParallelism() : os.cpus().length));
const basePort = Number(process.env.ARENA_BASE_PORT || 5561);
if (!Number.isInteger(processes) || processes < 1) throw new Error(`ARENA_PROCESSES must be a whole number from 1, got "${process.env.ARENA_PROCESSES}"`);
if (!Number.isInteger(basePort) || basePort < 1 || basePort + processes - 1 > 65535) {
  throw new Error(`ARENA_BASE_PORT must leave room for ${processes} ports, got "${process.env.ARENA_BASE_PORT}"`);
}
if (processes > 1 && (!process.env.REDIS_URL || !process.env.DATABASE_URL)) {
  throw new Error(
    `${processes} processes share the worlds as a cluster: set REDIS_URL and DATABASE_URL (one Redis, one PostgreSQL), JWT_SECRET and WORLDS (docs/DEPLOYMENT.md), or ARENA_PROCESSES=1`,
  );
}

/** The cluster's settings, the same for every process (those set in the shell that runs pm2). */
const shared = {};
for (const name of ["REDIS_URL", "DATABASE_URL", "JWT_SECRET", "WORLDS", "WORLD_CAPACITY", "PUBLIC_WS_URL", "TRUST_PROXY", "LOG_LEVEL"]) {
  if (process.env[name]) shared[name] = process.env[name];
}

module.exports = {
  apps: Array.from({ length: processes }, (_, i) => {
    const n = i + 1;
    const port = basePort + i;
    const address = process.env.ARENA_PUBLIC_ADDRESS?.replaceAll("{n}", String(n)).replaceAll("{port}", String(port));
    return {
      name: `arena-${n}`,
      cwd: __dirname,
      // node itself, not PM2's wrapper around a script: src/launch.mjs starts the server only when it
      // is node's own entry, and signals go straight to it.
      script: process.execPath,
      args: ["src/launch.mjs"],
      interpreter: "none",
      exec_mode: "fork",
      env: {
        NODE_ENV: process.env.NODE_ENV || "production",
        ...shared,
        PORT: String(port),
        ...(address ? { PUBLIC_ADDRESS: address } : {}),
      },
      kill_timeout: 30_000,
      autorestart: true,
      // A process that keeps failing is started again ever more slowly (100 ms, then ×1.5 each time, at most 15 s).
      exp_backoff_restart_delay: 100,
    };
  }),
};
