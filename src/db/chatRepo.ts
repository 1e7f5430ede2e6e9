import type { Prisma, PrismaClient } from "@prisma/client";
import type { Logger } from "pino";

/** Lines written together at most this often, or once this many wait. */
export const CHAT_FLUSH_MS = 1000;
export const CHAT_FLUSH_LINES = 500;
/** Lines kept in memory when the database does not take them (an outage): the oldest go first. */
export const CHAT_PENDING_MAX = 20_000;
/** How often lines past the retention are deleted. */
export const CHAT_PURGE_MS = 3600_000;

/** One line said, as the chat log keeps it. */
export interface SaidLine {
  at: Date;
  world: string;
  channel: "local" | "world" | "private";
  fromCharacterId: string;
  fromAccountId: string;
  fromName: string;
  toCharacterId?: string | null;
  toName?: string | null;
  message: string;
}

/**
 * The chat log of one world room: every line said there (local, world, private) written to
 * `chat_lines` in batches (every CHAT_FLUSH_MS, or CHAT_FLUSH_LINES at once), so chat costs no
 * write per line; lines past CHAT_RETENTION_DAYS deleted every hour (and once when the room starts: its
 * owner calls `purge`). A line the database does not
 * take is kept for the next flush (at most CHAT_PENDING_MAX). With a retention of 0 it keeps
 * nothing.
 */
export class ChatArchive {
  private pending: SaidLine[] = [];
  private flushing: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly purgeTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly logger: Logger,
    private readonly retentionDays: number,
  ) {
    if (retentionDays <= 0) return;
    this.timer = setInterval(() => void this.flush(), CHAT_FLUSH_MS);
    this.timer.unref();
    this.purgeTimer = setInterval(() => void this.purge(), CHAT_PURGE_MS);
    this.purgeTimer.unref();
  }

  record(line: SaidLine): void {
    if (this.retentionDays <= 0) return;
    this.pending.push(line);
    if (this.pending.length > CHAT_PENDING_MAX) this.pending.splice(0, this.pending.length - CHAT_PENDING_MAX);
    if (this.pending.length >= CHAT_FLUSH_LINES) void this.flush();
  }

  /** Write what waits (one flush at a time; resolves once everything recorded so far is written or kept for later). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.pending.length === 0) return;
    const lines = this.pending;
    this.pending = [];
    this.flushing = this.prisma.chatLine
      .createMany({ data: lines })
      .then(
        () => undefined,
        (err: unknown) => {
          this.logger.warn({ err: (err as Error).message, lines: lines.length }, "chat lines could not be written: kept for the next try");
          this.pending = [...lines, ...this.pending].slice(-CHAT_PENDING_MAX);
        },
      )
      .finally(() => (this.flushing = undefined));
    await this.flushing;
  }

  /** Delete the lines older than the retention (with a retention of 0, none: it keeps nothing new, and leaves what was kept). */
  async purge(now = Date.now()): Promise<number> {
    if (this.retentionDays <= 0) return 0;
    const before = new Date(now - this.retentionDays * 86_400_000);
    try {
      return (await this.prisma.chatLine.deleteMany({ where: { at: { lt: before } } })).count;
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, "old chat lines could not be deleted");
      return 0;
    }
  }

  /** Write what waits and stop (the room is being disposed of). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.purgeTimer);
    await this.flush();
  }
}

/** What the staff search the chat log by (every field optional; words: each must be in the line, any case). */
export interface ChatSearch {
  /** Lines this character said, or was sent privately. */
  characterId?: string;
  /** Lines between these two: said by one of them (in public, or privately to the other). */
  between?: [string, string];
  words?: string[];
  channel?: SaidLine["channel"];
  world?: string;
  from?: Date;
  to?: Date;
  /** Lines before this id (paging, newest first). */
  before?: bigint;
  limit: number;
}

/** The lines that match, newest first, and the id to page from (null: the last page). */
export async function searchChat(prisma: PrismaClient, q: ChatSearch) {
  const and: Prisma.ChatLineWhereInput[] = [];
  if (q.characterId) and.push({ OR: [{ fromCharacterId: q.characterId }, { toCharacterId: q.characterId }] });
  if (q.between) {
    const [a, b] = q.between;
    and.push({
      OR: [
        { fromCharacterId: { in: [a, b] }, toCharacterId: null },
        { fromCharacterId: a, toCharacterId: b },
        { fromCharacterId: b, toCharacterId: a },
      ],
    });
  }
  for (const w of q.words ?? []) and.push({ message: { contains: w, mode: "insensitive" } });
  if (q.channel) and.push({ channel: q.channel });
  if (q.world) and.push({ world: q.world });
  if (q.from || q.to) and.push({ at: { ...(q.from ? { gte: q.from } : {}), ...(q.to ? { lte: q.to } : {}) } });
  if (q.before !== undefined) and.push({ id: { lt: q.before } });
  const rows = await prisma.chatLine.findMany({ where: { AND: and }, orderBy: { id: "desc" }, take: q.limit + 1 });
  const page = rows.slice(0, q.limit);
  return {
    lines: page.map((r) => ({ ...r, id: r.id.toString(), at: r.at.toISOString() })),
    next: rows.length > q.limit ? page[page.length - 1].id.toString() : null,
  };
}
