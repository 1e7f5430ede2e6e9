import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Which process holds the embedded database of a data folder: `<DATA_DIR>/embedded.pid`, written
 * by the server that opened it and removed when it closes it. The embedded database takes one
 * process at a time, so the operator's commands (npm run admin) refuse to open it while a live
 * process holds it.
 */
const holderFile = (dataDir: string) => path.join(dataDir, "embedded.pid");

/** The pid of the live process holding the folder's embedded database, or undefined. */
export function embeddedHolder(dataDir: string): number | undefined {
  const file = holderFile(dataDir);
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, "utf8").trim());
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    // EPERM: alive, someone else's; ESRCH: gone (a crash left the file behind).
    return (err as NodeJS.ErrnoException).code === "EPERM" ? pid : undefined;
  }
}

/** Mark the folder's embedded database as held by this process; the function given back lets it go. */
export function holdEmbedded(dataDir: string): () => void {
  const file = holderFile(dataDir);
  writeFileSync(file, `${process.pid}\n`);
  return () => {
    try {
      if (readFileSync(file, "utf8").trim() === String(process.pid)) rmSync(file, { force: true });
    } catch {
      // already gone
    }
  };
}
