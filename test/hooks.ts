import { baseServer, stopTestPostgres } from "./helpers/postgres.js";

/** A parallel run (`mocha --parallel`, as `npm test` runs): its files run in several test processes. */
const parallel = process.argv.includes("--parallel") || process.argv.includes("-p");

/**
 * Global fixtures, run once in mocha's own process. In a parallel run the test PostgreSQL is
 * started here, before the test processes, and handed to them as TEST_DATABASE_URL: one server
 * (and one migrated template database) for the whole run, rather than one for each file.
 */
export async function mochaGlobalSetup() {
  if (!parallel || process.env.TEST_DATABASE_URL) return;
  process.env.TEST_DATABASE_URL = (await baseServer()).baseUrl;
}

export async function mochaGlobalTeardown() {
  await stopTestPostgres();
}

/**
 * Root hooks: shared test servers are stopped once every suite has run (in a parallel run, once
 * each file has: the global fixture's server is then not theirs to stop).
 */
export const mochaHooks = {
  async afterAll() {
    await stopTestPostgres();
  },
};
