import { stopTestPostgres } from "./helpers/postgres.js";

/** Root hooks: shared test servers are stopped once every suite has run. */
export const mochaHooks = {
  async afterAll() {
    await stopTestPostgres();
  },
};
