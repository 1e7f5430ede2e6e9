/**
 * The ETag sidecar: `${worldDir}/.manifest-etags.json` remembers, per manifest, the ETag the host
 * sent and the host it came from, so the next start-up can ask "changed since?" (If-None-Match).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "./fsAtomic.js";

export const ETAG_SIDECAR = ".manifest-etags.json";

const sidecarSchema = z.object({
  version: z.literal(1),
  files: z.record(z.string(), z.object({ etag: z.string(), baseUrl: z.string() })),
});
export type EtagEntry = { etag: string; baseUrl: string };

export class EtagStore {
  private dirty = false;

  private constructor(
    private readonly file: string,
    private readonly entries: Record<string, EtagEntry>,
  ) {}

  /** Read the sidecar of a world directory; a missing or damaged sidecar starts empty. */
  static async open(worldDir: string): Promise<EtagStore> {
    const file = path.join(worldDir, ETAG_SIDECAR);
    try {
      const parsed = sidecarSchema.safeParse(JSON.parse(await readFile(file, "utf8")));
      return new EtagStore(file, parsed.success ? { ...parsed.data.files } : {});
    } catch {
      return new EtagStore(file, {});
    }
  }

  /** The ETag stored for a file, only if it came from the same host. */
  get(rel: string, baseUrl: string): string | undefined {
    const e = this.entries[rel];
    return e && e.baseUrl === baseUrl ? e.etag : undefined;
  }

  /** Whether the file was last fetched from this host. */
  cameFrom(rel: string, baseUrl: string): boolean {
    return this.entries[rel]?.baseUrl === baseUrl;
  }

  set(rel: string, baseUrl: string, etag: string | undefined): void {
    const before = this.entries[rel];
    if (etag === undefined) {
      if (before) {
        delete this.entries[rel];
        this.dirty = true;
      }
      return;
    }
    if (before?.etag === etag && before.baseUrl === baseUrl) return;
    this.entries[rel] = { etag, baseUrl };
    this.dirty = true;
  }

  delete(rel: string): void {
    if (this.entries[rel]) {
      delete this.entries[rel];
      this.dirty = true;
    }
  }

  /** Write the sidecar if anything changed. */
  async save(): Promise<void> {
    if (!this.dirty) return;
    const sorted = Object.fromEntries(Object.entries(this.entries).sort(([a], [b]) => a.localeCompare(b)));
    await writeFileAtomic(this.file, `${JSON.stringify({ version: 1, files: sorted }, null, 2)}\n`);
    this.dirty = false;
  }
}
