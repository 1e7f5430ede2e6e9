import type { Logger } from "pino";
import type { Config } from "../config.js";
import type { SqlRunner } from "../db/sql.js";
import { syncItems } from "../db/itemSync.js";
import { featureWarnings, groundChanged, sameContent, type WorldContentReport } from "../game/world/contentReload.js";
import type { WorldFeature } from "../game/world/World.js";
import { GameError } from "../game/types.js";
import { ManifestError, manifestSyncOptions, prepareGameData, type GameData } from "../manifests/index.js";

/** The worlds of this process as a content reload reaches them (rooms/cluster/localWorlds.ts). */
export interface ContentWorlds {
  /** Each world takes the new data between two ticks; what each changed. */
  applyContent(data: GameData): Array<{ world: number } & WorldContentReport>;
}

/** A reload refused: every problem found, one line each (HTTP 422 CONTENT_INVALID, 409 CONTENT_NEEDS_RESTART). */
export class ContentRefused extends GameError {
  constructor(
    code: "CONTENT_INVALID" | "CONTENT_NEEDS_RESTART",
    message: string,
    readonly problems: string[],
  ) {
    super(code, message);
  }
}

/** What changed between two versions of the game data, by kind of definition: ids added, removed and changed. */
export type ContentChanges = Record<
  "items" | "npcs" | "stores" | "quests" | "recipes" | "resources" | "spells" | "prayers",
  { added: string[]; removed: string[]; changed: string[] }
>;

export interface ContentReloadResult {
  version: string;
  previousVersion: string;
  /** The manifests are the ones running already: nothing was applied. */
  unchanged: boolean;
  changes: ContentChanges;
  worlds: Array<{ world: number } & WorldContentReport>;
}

interface Holder {
  config: Config;
  logger: Logger;
  db: { sql: SqlRunner };
  gameData: GameData;
  /** The features' own manifest files are fetched with the rest, and what they would skip is refused as the loader's problems are. */
  worldFeatures: { manifests: readonly string[]; list: readonly WorldFeature[] };
}

/**
 * Content without a restart (`POST /api/admin/content/reload`, README "Content reload"): the
 * world's manifests are read again (synced from the asset host first, as at start-up) and validated
 * whole; a load with problems the running content did not have is refused with every one listed,
 * and so is one whose ground differs (that needs a restart); nothing changes then. Otherwise the
 * item definitions are synced into the database, the process's game data is replaced (what the
 * routes serve: the catalogue, the map, templates) and every world of this process applies it
 * between two ticks. Other processes of a cluster take the same version when they see its audit
 * row (src/staff/operatorChanges.ts).
 */
export class ContentReloads {
  private worlds: ContentWorlds | undefined;
  /** One reload at a time in this process. */
  private running: Promise<unknown> = Promise.resolve();
  /** Told after each reload this process takes (MCP sessions tell their clients). */
  private readonly listeners = new Set<(next: GameData) => void>();

  constructor(private readonly ctx: Holder) {}

  attach(worlds: ContentWorlds) {
    this.worlds = worlds;
  }

  /** Be told after each reload this process takes, once the worlds play it; returns how to stop. */
  onReloaded(fn: (next: GameData) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Read and check the manifests as they are now: the new data, or ContentRefused. */
  async read(): Promise<GameData> {
    const running = this.ctx.gameData;
    let next: GameData;
    try {
      next = await prepareGameData({ ...manifestSyncOptions(this.ctx.config, this.ctx.logger, this.ctx.worldFeatures.manifests), skip: false });
    } catch (err) {
      if (err instanceof ManifestError) throw new ContentRefused("CONTENT_INVALID", `The manifests cannot be loaded: ${err.message}`, err.problems);
      throw err;
    }
    const features = this.ctx.worldFeatures.list;
    const known = new Set([...running.warnings, ...featureWarnings(running, features)]);
    const problems = [...next.warnings, ...featureWarnings(next, features)].filter((w) => !known.has(w));
    if (problems.length > 0) {
      throw new ContentRefused("CONTENT_INVALID", `The manifests have ${problems.length} problem(s): nothing was changed`, problems);
    }
    if (groundChanged(running, next)) {
      throw new ContentRefused("CONTENT_NEEDS_RESTART", "The ground changed (the areas' extent or the buildings): restart the server to apply it", [
        "world-areas.json (areas' bounds) or buildings.json differ from the running content",
      ]);
    }
    return next;
  }

  /** Reload now (one at a time): `audit` writes the act's audit row once the content is known good, before anything changes. */
  reload(audit: (version: string, changes: ContentChanges) => Promise<void>): Promise<ContentReloadResult> {
    const run = this.running.then(async () => {
      const previous = this.ctx.gameData;
      const next = await this.read();
      const changes = changesBetween(previous, next);
      const unchanged = next.version === previous.version;
      await audit(next.version, changes);
      if (unchanged) return { version: next.version, previousVersion: previous.version, unchanged, changes, worlds: [] };
      return { version: next.version, previousVersion: previous.version, unchanged, changes, worlds: await this.apply(next) };
    });
    this.running = run.catch(() => undefined);
    return run;
  }

  /**
   * Another process reloaded `version`: take it here too (read from this process's own manifests).
   * A process whose manifests give another version keeps what it runs, and says so in the log.
   */
  follow(version: string): Promise<void> {
    const run = this.running.then(async () => {
      if (this.ctx.gameData.version === version) return;
      const next = await this.read();
      if (next.version !== version) {
        this.ctx.logger.error(
          { wanted: version, found: next.version },
          "a content reload elsewhere: this process's manifests differ from the ones reloaded; it keeps its content",
        );
        return;
      }
      await this.apply(next);
    });
    this.running = run.catch((err) => this.ctx.logger.error({ err: (err as Error).message }, "a content reload elsewhere could not be taken here"));
    return this.running as Promise<void>;
  }

  private async apply(next: GameData) {
    const synced = await syncItems(this.ctx.db.sql, next.items.values());
    this.ctx.gameData = next;
    const worlds = this.worlds?.applyContent(next) ?? [];
    this.ctx.logger.warn({ version: next.version, items: synced, worlds: worlds.length }, "content reloaded");
    for (const fn of [...this.listeners]) {
      try {
        fn(next);
      } catch (err) {
        this.ctx.logger.error({ err: (err as Error).message }, "a content reload's listener failed");
      }
    }
    return worlds;
  }
}

const reloads = new WeakMap<object, ContentReloads>();

/** The process's content reloads (one per server context). */
export function contentOf(ctx: Holder): ContentReloads {
  let r = reloads.get(ctx);
  if (!r) reloads.set(ctx, (r = new ContentReloads(ctx)));
  return r;
}

/** Ids added, removed and changed between two versions of the game data. */
export function changesBetween(a: GameData, b: GameData): ContentChanges {
  const recipesOf = (d: GameData) => {
    // Several recipes of one kind may make one item: they are compared together.
    const out = new Map<string, unknown[]>();
    for (const [kind, list] of Object.entries(d.recipes)) for (const r of list) out.set(`${kind}:${r.id}`, [...(out.get(`${kind}:${r.id}`) ?? []), r]);
    return out;
  };
  const resourcesOf = (d: GameData) => new Map(Object.values(d.gathering).flatMap((m) => [...m.entries()]));
  return {
    items: diff(a.items, b.items),
    npcs: diff(a.npcs, b.npcs),
    stores: diff(a.stores, b.stores),
    quests: diff(a.quests, b.quests),
    recipes: diff(recipesOf(a), recipesOf(b)),
    resources: diff(resourcesOf(a), resourcesOf(b)),
    spells: diff(a.spells, b.spells),
    prayers: diff(a.prayers, b.prayers),
  };
}

function diff<T>(a: ReadonlyMap<string, T>, b: ReadonlyMap<string, T>) {
  const added = [...b.keys()].filter((k) => !a.has(k));
  const removed = [...a.keys()].filter((k) => !b.has(k));
  const changed = [...b.keys()].filter((k) => a.has(k) && !sameContent(a.get(k), b.get(k)));
  return { added, removed, changed };
}
