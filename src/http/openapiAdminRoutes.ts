import { z } from "zod";
import { answer, bool, err, int, ok, str, tagged, when, type RouteDoc } from "./openapi.js";
import {
  AuditQuery,
  BroadcastBody,
  CloseBody,
  ConservationQuery,
  LedgerQuery,
  KickBody,
  LiftBody,
  NameParams,
  ReportParams,
  ReportQuery,
  ReloadBody,
  RestartBody,
  RoleBody,
  SanctionBody,
  SanctionQuery,
} from "./api/admin.js";
import { AddressBanBody, AddressBanQuery, AddressLiftBody, SessionQuery } from "./api/adminAddresses.js";
import { ChatQuery, ReportChatParams } from "./api/adminChat.js";
import { ClearBody, FlagParams, FlagQuery } from "./api/adminFlags.js";
import { DrainBody } from "./api/adminDrain.js";
import { LogQuery, LogStreamQuery } from "./api/adminLive.js";

/** The staff's routes of the OpenAPI document (openapiRoutes.ts has the rest). */

const IdChanges = z.object({ added: z.array(str), removed: z.array(str), changed: z.array(str) });
const Placed = z.object({ added: int, removed: int, replaced: int });
const HeldItem = z.object({ characterId: str, itemId: str, quantity: int });
const WorldContent = z.object({
  world: int,
  npcs: Placed,
  resources: Placed,
  stations: Placed,
  stores: IdChanges,
  ended: z.object({ dialogues: int, stores: int, actions: int }),
  heldRemoved: z.array(HeldItem),
});
const ContentRefusal = (code: string) =>
  z.object({ success: z.literal(false), error: z.object({ code: z.literal(code), message: str, problems: z.array(str) }) });

const Sanction = z.object({
  id: str,
  accountId: str,
  kind: z.enum(["mute", "ban"]),
  reason: str,
  createdAt: when,
  endsAt: when.nullable(),
  byAccountId: str.nullable(),
  byName: str,
  targetName: str,
  liftedAt: when.nullable(),
  liftedByAccountId: str.nullable(),
  liftedByName: str.nullable(),
  liftReason: str.nullable(),
});
const ChatLine = z.object({ at: when, fromId: str, fromName: str, channel: str, message: str });
const Report = z.object({
  id: str,
  reporterAccountId: str,
  reporterCharacterId: str.nullable(),
  reporterName: str,
  targetAccountId: str,
  targetCharacterId: str,
  targetName: str,
  reason: str,
  chat: z.array(ChatLine),
  status: z.enum(["open", "claimed", "closed"]),
  createdAt: when,
  claimedByAccountId: str.nullable(),
  claimedByName: str.nullable(),
  claimedAt: when.nullable(),
  closedByAccountId: str.nullable(),
  closedByName: str.nullable(),
  closedAt: when.nullable(),
  resolution: str.nullable(),
});
const AuditEntry = z.object({
  id: str,
  at: when,
  actorAccountId: str.nullable(),
  actorCharacterId: str.nullable(),
  actorName: str,
  via: z.enum(["game", "rest", "cli", "monitor", "server"]),
  kind: str,
  targetAccountId: str.nullable(),
  targetCharacterId: str.nullable(),
  targetName: str.nullable(),
  args: z.record(str, z.unknown()),
  reason: str.nullable(),
  processId: str,
});
const LedgerRow = z.object({ id: str, at: when, itemId: str, delta: int, cause: str, ref: str.nullable(), otherId: str.nullable(), world: str.nullable() });
const Standing = z.object({
  role: z.enum(["player", "moderator", "admin"]),
  ban: z.object({ reason: str, until: when.nullable() }).nullable(),
  mute: z.object({ reason: str, until: when.nullable() }).nullable(),
});
const Online = z.object({ id: str, name: str, isAgent: bool, combatLevel: int, tile: z.object({ x: int, z: int }), world: int, accountId: str.nullable() });

const staff = { 403: err("not a staff account of the role this needs (or an agent token)", "FORBIDDEN") };
const acting = {
  ...staff,
  404: err("no player of that name or id", "UNKNOWN_PLAYER"),
  503: err("the act could not be recorded in the audit log: nothing was done", "AUDIT_UNAVAILABLE"),
};
const Message = ok({ message: str });

const Memory = z.object({ rssBytes: int, heapUsedBytes: int, heapTotalBytes: int });
const WorldStats = z.object({
  world: int,
  tick: int,
  players: int,
  agents: int,
  sessionsByClient: z.record(str, int).describe("colyseus (SDK clients), ws (the /ws adapter), runtime (built-in agents), mcp"),
  ticks: z.object({ ticks: int, medianMs: z.number(), p99Ms: z.number() }).nullable(),
  processId: str.nullable(),
  processMemory: Memory,
});
const SessionRow = z.object({
  id: str,
  characterId: str,
  name: str,
  accountId: str,
  clientType: str,
  world: str,
  address: str.nullable().describe("null: a built-in agent"),
  startedAt: when,
  endedAt: when.nullable(),
  endReason: str.nullable(),
});
const AddressBan = z.object({
  id: str,
  address: str,
  scope: z.enum(["guests", "all"]),
  reason: str,
  createdAt: when,
  endsAt: when,
  byAccountId: str.nullable(),
  byName: str,
  liftedAt: when.nullable(),
  liftedByName: str.nullable(),
  liftReason: str.nullable(),
});
const FlagRow = z.object({
  id: str,
  kind: z.enum(["movement", "action_rate", "xp_rate", "wealth"]),
  characterId: str,
  accountId: str,
  name: str,
  world: str,
  evidence: z.record(str, z.unknown()).describe("what showed it, at its latest sighting: counts and limits, xp or value gained and since when, the tile"),
  count: int,
  createdAt: when,
  lastAt: when,
  clearedAt: when.nullable(),
  clearedByName: str.nullable(),
  clearNote: str.nullable(),
});
const ChatLogLine = z.object({
  id: str,
  at: when,
  world: str,
  channel: z.enum(["local", "world", "private"]),
  fromCharacterId: str,
  fromAccountId: str,
  fromName: str,
  toCharacterId: str.nullable(),
  toName: str.nullable(),
  message: str,
});
const LogLine = z.object({
  id: int,
  level: z.enum(["trace", "debug", "info", "warn", "error", "fatal"]),
  time: int,
  msg: str,
  line: z.record(str, z.unknown()).describe("the whole JSON line as the log has it"),
});

export const ADMIN_ROUTES: RouteDoc[] = [
  ...tagged("admin", [
    {
      route: "GET /api/admin/players",
      summary: "Everyone online in every world, with their accounts (moderator)",
      responses: { 200: answer("online players", ok({ players: z.array(Online) })), ...staff },
    },
    {
      route: "GET /api/admin/characters/{nameOrId}",
      summary: "A character's full picture: pack, worn, bank, position, world, sessions, sanctions, reports (moderator)",
      params: NameParams,
      responses: {
        200: answer(
          "the live copy when online, else the saved one",
          ok({
            character: z.object({
              id: str,
              name: str,
              accountId: str,
              role: z.enum(["player", "moderator", "admin"]),
              online: bool,
              world: int.nullable(),
              position: z.object({ x: int, z: int }).nullable(),
              health: int.nullable(),
              xp: z.record(str, int).nullable(),
              inventory: z.array(z.object({ itemId: str, quantity: int }).nullable()),
              equipment: z.record(str, z.unknown()),
              bank: z.array(z.unknown()),
            }),
            standing: Standing,
            sessions: z.array(z.record(str, z.unknown())),
            sanctions: z.array(Sanction),
            reports: z.array(Report),
          }),
        ),
        ...staff,
        404: err("no such character", "CHARACTER_NOT_FOUND"),
      },
    },
    {
      route: "GET /api/admin/sanctions",
      summary: "Sanctions, newest first; active=true: those in force (moderator)",
      query: SanctionQuery,
      responses: { 200: answer("sanctions", ok({ sanctions: z.array(Sanction) })), ...acting },
    },
    {
      route: "POST /api/admin/sanctions",
      summary: "Mute or ban a player's account (moderator; not staff of your role or above)",
      body: SanctionBody,
      bodyNote: "duration: 30m, 12h, 7d, 2w (at most 10 years) or permanent. A ban removes the account's players from every world at once (close 4102).",
      responses: {
        201: answer("saved, audited, felt at once", ok({ sanction: Sanction, message: str })),
        400: err("bad duration or reason", "INVALID_DURATION", "REASON_REQUIRED", "REASON_TOO_LONG"),
        ...acting,
        403: err("not a moderator, or the target's role is not below yours", "FORBIDDEN", "TARGET_IS_STAFF"),
      },
    },
    {
      route: "POST /api/admin/sanctions/lift",
      summary: "Lift the mute or ban in force (moderator)",
      body: LiftBody,
      responses: { 200: answer("lifted", ok({ sanction: Sanction, message: str })), ...acting, 409: err("nothing of that kind in force", "NOT_SANCTIONED") },
    },
    {
      route: "POST /api/admin/kick",
      summary: "Kick a player out of whatever world it plays in (moderator)",
      body: KickBody,
      responses: {
        200: answer("kicked (close 4101)", Message),
        ...acting,
        403: err("not a moderator, or the target's role is not below yours", "FORBIDDEN", "TARGET_IS_STAFF"),
      },
    },
    {
      route: "POST /api/admin/roles",
      summary: "Give an account a staff role, or take it away with role player (admin)",
      body: RoleBody,
      responses: {
        200: answer("the role, felt at once", ok({ accountId: str, role: z.enum(["player", "moderator", "admin"]), message: str })),
        ...acting,
        403: err("not an admin, or lowering your own role", "FORBIDDEN", "TARGET_IS_STAFF"),
      },
    },
    {
      route: "GET /api/admin/reports",
      summary: "Player reports, newest first (moderator)",
      query: ReportQuery,
      responses: { 200: answer("reports with their chat", ok({ reports: z.array(Report) })), ...staff },
    },
    {
      route: "POST /api/admin/reports/{reportId}/claim",
      summary: "Take a report (moderator)",
      params: ReportParams,
      responses: {
        200: answer("claimed by you", ok({ report: Report })),
        ...staff,
        404: err("no such report", "REPORT_NOT_FOUND"),
        409: err("closed already", "REPORT_CLOSED"),
      },
    },
    {
      route: "POST /api/admin/reports/{reportId}/close",
      summary: "Close a report with what was done (moderator)",
      params: ReportParams,
      body: CloseBody,
      responses: {
        200: answer("closed", ok({ report: Report })),
        ...staff,
        404: err("no such report", "REPORT_NOT_FOUND"),
        409: err("closed already", "REPORT_CLOSED"),
      },
    },
    {
      route: "GET /api/admin/sessions",
      summary: "Sessions by player or by address, newest first, with the address each came from (moderator)",
      query: SessionQuery,
      bodyNote: "player: a name or an id (its account's sessions); address: one address. accounts: how many accounts the sessions are of.",
      responses: {
        200: answer("the sessions", ok({ sessions: z.array(SessionRow), accounts: int })),
        ...staff,
        404: err("no player of that name or id", "UNKNOWN_PLAYER"),
      },
    },
    {
      route: "GET /api/admin/address-bans",
      summary: "Bans by address, newest first (moderator)",
      query: AddressBanQuery,
      responses: { 200: answer("the bans", ok({ bans: z.array(AddressBan) })), ...staff },
    },
    {
      route: "POST /api/admin/address-bans",
      summary:
        "Ban an address for a time, at most 30 days: scope guests (default) refuses new guests and guests' logins from it, all every login but the staff's (moderator)",
      body: AddressBanBody,
      responses: {
        201: answer("banned; kicked: how many who played from it now, and whom it refuses, were let go", ok({ ban: AddressBan, kicked: int })),
        400: err("not one address, or no duration of at most 30 days", "INVALID_DURATION"),
        ...staff,
        503: err("the act could not be recorded in the audit log: nothing was done", "AUDIT_UNAVAILABLE"),
      },
    },
    {
      route: "POST /api/admin/address-bans/lift",
      summary: "Lift the bans in force on an address (moderator)",
      body: AddressLiftBody,
      responses: {
        200: answer("how many were lifted", ok({ lifted: int })),
        ...staff,
        409: err("no ban on it is in force", "NOT_SANCTIONED"),
      },
    },
    {
      route: "GET /api/admin/flags",
      summary:
        "The flagged list: characters the watchdog saw asking for more than the rules allow or gaining beyond play, the latest sighting first (moderator)",
      query: FlagQuery,
      bodyNote: "status: open (default), cleared or all; kind: movement, action_rate, xp_rate, wealth; player: a name or an id.",
      responses: {
        200: answer("the flags", ok({ flags: z.array(FlagRow) })),
        ...staff,
        404: err("no player of that name or id", "UNKNOWN_PLAYER"),
      },
    },
    {
      route: "POST /api/admin/flags/{flagId}/clear",
      summary: "Clear a flag with what was found (moderator; audited as flag.clear)",
      params: FlagParams,
      body: ClearBody,
      responses: {
        200: answer("cleared", ok({ flag: FlagRow })),
        ...staff,
        404: err("no such flag", "FLAG_NOT_FOUND"),
        409: err("cleared already", "FLAG_CLEARED"),
      },
    },
    {
      route: "GET /api/admin/chat",
      summary: "Search the chat log (every line said in the last CHAT_RETENTION_DAYS), newest first, in pages (moderator; audited as chat.search)",
      query: ChatQuery,
      bodyNote:
        "player: the lines a player said or was sent privately (a name or an id); with (needs player): the lines between the two; q: words, each in the line, any case; from, to: ISO 8601; next: pass as before for the next page.",
      responses: {
        200: answer("the lines, and the id to page from (null: the last page)", ok({ retentionDays: int, lines: z.array(ChatLogLine), next: str.nullable() })),
        ...staff,
        404: err("no player of that name or id", "UNKNOWN_PLAYER"),
      },
    },
    {
      route: "GET /api/admin/reports/{reportId}/chat",
      summary:
        "The lines between the reporter and the one reported from 15 minutes before the report to 5 after, oldest first (moderator; audited as chat.report)",
      params: ReportChatParams,
      responses: {
        200: answer("the lines of that window", ok({ reportId: str, from: when, to: when, lines: z.array(ChatLogLine) })),
        ...staff,
        404: err("no such report", "REPORT_NOT_FOUND"),
      },
    },
    {
      route: "GET /api/admin/stats",
      summary: "Who is online by world and by how they play, each world's ticks and its process's memory; this process's memory and saves (admin)",
      responses: {
        200: answer(
          "the stats now",
          ok({
            at: when,
            online: z.object({ players: int, agents: int, sessionsByClient: z.record(str, int) }),
            worlds: z.array(WorldStats),
            process: z.object({
              processId: str.nullable(),
              version: str,
              uptimeS: int,
              memory: Memory.extend({ externalBytes: int }),
              saves: z.object({ written: int, failed: int }),
            }),
          }),
        ),
        ...staff,
      },
    },
    {
      route: "GET /api/admin/log",
      summary: "The latest lines of this process's log (the last 2,000 kept), oldest first (admin)",
      query: LogQuery,
      bodyNote: "level: that level and above. after: lines after this id. limit: the latest this many (1-1000, default 200).",
      responses: {
        200: answer("the lines kept that match, and how many the process keeps", ok({ capacity: int, lines: z.array(LogLine) })),
        ...staff,
      },
    },
    {
      route: "GET /api/admin/log/stream",
      summary: "Each new line of this process's log as a server-sent event `log` (admin)",
      query: LogStreamQuery,
      bodyNote:
        "level: that level and above. after (or Last-Event-ID): first the kept lines after that id. A comment every 15 s; a client that lets 1 MiB pile up unread is let go.",
      responses: {
        200: answer("text/event-stream: `id: <line id>`, `event: log`, `data: <the line as GET /api/admin/log gives it>`"),
        ...staff,
        503: err("10 log streams on this server already", "TOO_MANY_STREAMS"),
      },
    },
    {
      route: "GET /api/admin/audit",
      summary: "The audit log, newest first, in pages (admin)",
      query: AuditQuery,
      bodyNote: "actor, target: a character's name or an account id. next: pass as before for the next page.",
      responses: {
        200: answer("entries, and the id to page from (null: the last page)", ok({ entries: z.array(AuditEntry), next: str.nullable() })),
        ...staff,
      },
    },
    {
      route: "GET /api/admin/audit/conservation",
      summary: "The item ledger's conservation check: every holding against its ledger's sum, every transfer's two sides (admin)",
      query: ConservationQuery,
      responses: {
        200: answer(
          "ok: nothing found; each mismatch with the ledger rows around it",
          ok({
            characters: int,
            ok: bool,
            holdings: z.array(z.object({ characterId: str, name: str.nullable(), itemId: str, expected: int, found: int, rows: z.array(LedgerRow) })),
            transfers: z.array(z.object({ cause: str, ref: str, itemId: str, imbalance: int })),
          }),
        ),
        ...staff,
        404: err("no such character", "CHARACTER_NOT_FOUND"),
      },
    },
    {
      route: "GET /api/admin/characters/{nameOrId}/ledger",
      summary: "A character's item history, newest first, in pages (moderator)",
      params: NameParams,
      query: LedgerQuery,
      responses: {
        200: answer("its ledger rows; next: pass as before for the next page", ok({ characterId: str, rows: z.array(LedgerRow), next: str.nullable() })),
        ...staff,
        404: err("no such character", "CHARACTER_NOT_FOUND"),
      },
    },
    {
      route: "POST /api/admin/broadcast",
      summary: "system:broadcast to every player of one world or of all (admin)",
      body: BroadcastBody,
      responses: { 200: answer("sent", Message), 400: err("empty or too long", "EMPTY_MESSAGE", "MESSAGE_TOO_LONG"), ...staff, 503: acting[503] },
    },
    {
      route: "POST /api/admin/backup",
      summary: "Back the embedded database up now, while the server runs, to DATA_DIR/backups (admin)",
      responses: {
        201: answer(
          "the file written, its manifest beside it, both checked (restore it with npm run restore)",
          ok({ file: str, bytes: int, sha256: str, manifest: str, characters: int }),
        ),
        ...staff,
        409: err("the server runs on PostgreSQL: use pg_dump", "NOT_EMBEDDED"),
        500: err("the file written does not match its manifest when read back", "BACKUP_FAILED"),
        503: acting[503],
      },
    },
    {
      route: "POST /api/admin/content/reload",
      summary: "Read the world's manifests again and apply them to every world between two ticks (admin; README, Content reload)",
      body: ReloadBody,
      responses: {
        200: answer(
          "applied (or unchanged: the same files): what changed by kind of definition, what each world placed, ended and holds of removed items, and the saved holdings of removed items",
          ok({
            version: str,
            previousVersion: str,
            unchanged: bool,
            changes: z.record(str, IdChanges),
            worlds: z.array(WorldContent),
            heldRemoved: z.object({ online: z.array(HeldItem), saved: z.array(HeldItem.extend({ name: str })) }),
          }),
        ),
        ...staff,
        409: answer("the ground changed (buildings, the areas' extent): restart to apply it; nothing changed", ContentRefusal("CONTENT_NEEDS_RESTART")),
        422: answer("the manifests have problems, each one listed; nothing changed", ContentRefusal("CONTENT_INVALID")),
        503: acting[503],
      },
    },
    {
      route: "POST /api/admin/save",
      summary: "Save every player of every world now (admin)",
      responses: { 200: answer("how many were saved", ok({ saved: int })), ...staff, 503: acting[503] },
    },
    {
      route: "GET /api/admin/restart",
      summary: "The restart scheduled on this process, if any (admin)",
      responses: { 200: answer("null when none", ok({ restart: z.object({ restartAt: when, reason: str, by: str }).nullable() })), ...staff },
    },
    {
      route: "POST /api/admin/restart",
      summary: "Restart this process in inSeconds: countdown broadcast, joins refused in the last 30 s, everyone saved, sessions closed 1012, exit 0 (admin)",
      body: RestartBody,
      responses: {
        202: answer("scheduled; steps: the seconds-left of each countdown broadcast", ok({ restartAt: when, steps: z.array(int) })),
        ...staff,
        503: acting[503],
      },
    },
    {
      route: "DELETE /api/admin/restart",
      summary: "Call off the scheduled restart (admin)",
      responses: { 200: answer("called off", ok({})), ...staff, 404: err("none is scheduled", "NO_RESTART") },
    },
    {
      route: "GET /api/admin/drain",
      summary: "The cluster's live processes (which are draining) and this process's drain, if any (admin)",
      responses: {
        200: answer(
          "drain: null unless this process drains; moved once its worlds moved",
          ok({
            processId: str,
            drain: z
              .object({ processId: str, startedAt: when, by: str, moved: z.object({ worlds: z.array(int), players: int, ms: int }).optional() })
              .nullable(),
            processes: z.array(z.object({ processId: str, draining: bool })),
          }),
        ),
        ...staff,
      },
    },
    {
      route: "POST /api/admin/drain",
      summary:
        "Drain a process for an upgrade (the one answering, or processId): its worlds move with their players to the others (world:moving, close 4103), then it exits 0 (admin)",
      body: DrainBody,
      responses: {
        202: answer("the drain started (or was under way: alreadyDraining)", ok({ processId: str, alreadyDraining: bool, startedAt: when.optional() })),
        ...staff,
        404: err("no live process of that id", "UNKNOWN_PROCESS"),
        409: err("this server runs alone (no REDIS_URL), or no other process would take the worlds", "NO_CLUSTER", "NO_OTHER_PROCESS"),
        503: acting[503],
      },
    },
  ]),
];
