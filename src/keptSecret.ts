import { randomBytes } from "node:crypto";
import { chmodSync, linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The file in the data folder that keeps the token secret the server made for itself (outside production). */
export const SECRET_FILE = "jwt-secret";

/** Shortest secret accepted, from the environment or the file. */
export const MIN_SECRET_LENGTH = 32;

/**
 * The token secret kept in `dataDir`: read from `jwt-secret` when it is there, else made (48
 * random bytes, base64url) and written with mode 0600, so that tokens signed before a restart stay
 * valid after it. The file is made beside and linked into place, so two processes starting at once
 * agree on one secret and neither reads half of it. A file that others may read is closed to them.
 * Throws with a sentence naming the file when it cannot be read or made, or is too short.
 */
export function keptSecret(dataDir: string): { secret: string; file: string } {
  const file = path.join(dataDir, SECRET_FILE);
  const read = () => {
    const secret = readFileSync(file, "utf8").trim();
    if (secret.length < MIN_SECRET_LENGTH)
      throw new Error(
        `${file} holds no secret of at least ${MIN_SECRET_LENGTH} characters: delete it (every token signed with it stops working) or set JWT_SECRET`,
      );
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    return { secret, file };
  };
  try {
    return read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  mkdirSync(dataDir, { recursive: true });
  const making = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(making, `${randomBytes(48).toString("base64url")}\n`, { mode: 0o600 });
  try {
    linkSync(making, file);
  } catch (err) {
    // Another process made it first: its secret is the one.
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  } finally {
    rmSync(making, { force: true });
  }
  return read();
}
