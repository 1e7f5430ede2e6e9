import type { Config } from "./config.js";
import { embeddedHolder } from "./db/embeddedHolder.js";

/**
 * What the operator's commands (npm run admin, audit, backup, restore) share: how they run and
 * end (exit code of `main`; a failure is its message and exit 1), and their refusal while a
 * server holds the embedded database they would open.
 */
export function runCli(main: (argv: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}

/**
 * True, having said so, when the configured database is the embedded one and a server holds it
 * (it takes one process at a time); `instead`: what to do while it runs.
 */
export function heldByServer(config: Config, instead: string): boolean {
  if (config.databaseUrl || config.useLocalPostgres) return false;
  const holder = embeddedHolder(config.dataDir);
  if (!holder) return false;
  console.error(`The server (pid ${holder}) holds the embedded database in ${config.dataDir}: it takes one process at a time.\n${instead}`);
  return true;
}
