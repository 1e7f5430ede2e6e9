import { open } from "node:fs/promises";
import { BackupError } from "./backupManifest.js";

/**
 * The structure of a backup file: a tar (ustar headers, each with a valid header checksum, every
 * entry whole, closed by the end-of-archive block) of a data folder of the embedded database
 * (PG_VERSION and global/pg_control at its top). It reads the headers only; the entries' bytes are
 * covered by the manifest's checksum.
 */

const BLOCK = 512;
/** What every data folder of the embedded database holds at its top. */
const REQUIRED = ["PG_VERSION", "global/pg_control"];

const text = (b: Buffer, from: number, length: number) => {
  const s = b.subarray(from, from + length);
  const end = s.indexOf(0);
  return s.subarray(0, end < 0 ? s.length : end).toString("utf8");
};

/** A header's numeric field: octal text, or base-256 when its first byte has the high bit. */
function numberOf(b: Buffer, from: number, length: number): number {
  if (b[from] & 0x80) {
    let n = b[from] & 0x7f;
    for (let i = from + 1; i < from + length; i++) n = n * 256 + b[i];
    return n;
  }
  const s = text(b, from, length).trim();
  return /^[0-7]+$/.test(s) ? parseInt(s, 8) : NaN;
}

/** True when the header's checksum field matches its bytes (the field itself counted as spaces). */
function checksumHolds(h: Buffer): boolean {
  const told = numberOf(h, 148, 8);
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const v = i >= 148 && i < 156 ? 0x20 : h[i];
    unsigned += v;
    signed += v > 127 ? v - 256 : v;
  }
  return told === unsigned || told === signed;
}

/** Refused, naming what is wrong, unless `file` is a whole tar of an embedded database's data folder. */
export async function checkDataFolderTar(file: string): Promise<void> {
  const handle = await open(file, "r");
  try {
    const size = (await handle.stat()).size;
    const names = new Set<string>();
    const header = Buffer.alloc(BLOCK);
    let offset = 0;
    let longName: string | undefined;
    for (;;) {
      if (offset + BLOCK > size) {
        if (offset === 0) throw new BackupError(`${file} is not a tar file (${size} bytes, less than one header)`);
        throw new BackupError(`${file} is truncated: it ends at byte ${size} without the tar's end-of-archive block`);
      }
      await handle.read(header, 0, BLOCK, offset);
      if (header.every((b) => b === 0)) break;
      if (!checksumHolds(header)) {
        if (offset === 0) throw new BackupError(`${file} is not a tar file (its first header is not a tar header)`);
        throw new BackupError(`${file} is damaged: the tar header at byte ${offset} does not match its checksum`);
      }
      const length = numberOf(header, 124, 12);
      if (!Number.isFinite(length)) throw new BackupError(`${file} is damaged: the tar header at byte ${offset} has no readable size`);
      const type = String.fromCharCode(header[156] || 0x30);
      const end = offset + BLOCK + Math.ceil(length / BLOCK) * BLOCK;
      if (end > size) throw new BackupError(`${file} is truncated: its entry at byte ${offset} runs past the end of the file (${size} bytes)`);
      if (type === "L") {
        // A GNU long name: the next entry's name is this entry's data.
        const data = Buffer.alloc(length);
        await handle.read(data, 0, length, offset + BLOCK);
        longName = text(data, 0, length);
      } else if (type !== "x" && type !== "g") {
        const prefix = text(header, 257, 6) === "ustar" ? text(header, 345, 155) : "";
        const name = longName ?? (prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100));
        names.add(name.replace(/^(\.?\/)+/, "").replace(/\/$/, ""));
        longName = undefined;
      }
      offset = end;
    }
    const missing = REQUIRED.filter((n) => !names.has(n));
    if (missing.length) {
      throw new BackupError(`${file} is a tar file but not a data folder of this server's embedded database (it has no ${missing.join(" and no ")})`);
    }
  } finally {
    await handle.close();
  }
}
