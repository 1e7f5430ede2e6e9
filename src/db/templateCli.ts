/**
 * Install step (the project's postinstall): `tsx src/db/templateCli.ts` makes the embedded database's
 * migrated template (src/db/pgliteTemplate.ts) ahead of the first start, so that a new DATA_DIR
 * opens in well under a second. Exits 0 even when it cannot: the first database makes it then.
 */
import { createLogger } from "../logger.js";
import { pgliteTemplateFolder } from "./pgliteTemplate.js";

const logger = createLogger({ level: "warn", pretty: true });
try {
  await pgliteTemplateFolder(logger);
} catch (err) {
  logger.warn({ err }, "the embedded database's template was not made now; the first new database makes it");
}
