import { GameError } from "./types.js";

/**
 * The rules of staff work, with no database or room in sight: the roles and what each may do,
 * sanction durations, and the arguments of the in-game staff commands. README "Staff and
 * moderation" and docs/API.md "Admin API" describe them for operators.
 */

/** Staff roles of an account, lowest first. An account holds one; `player` is everyone's. */
export const STAFF_ROLES = ["player", "moderator", "admin"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const isStaffRole = (value: unknown): value is StaffRole => typeof value === "string" && (STAFF_ROLES as readonly string[]).includes(value);

/** The highest role among an account's stored roles (unknown entries count for nothing). */
export function roleOf(roles: readonly string[]): StaffRole {
  let best: StaffRole = "player";
  for (const r of roles) if (isStaffRole(r) && rank(r) > rank(best)) best = r;
  return best;
}

export const rank = (role: StaffRole) => STAFF_ROLES.indexOf(role);

/** Every privileged act, and the lowest role that may do it. */
export const STAFF_ACTS = {
  mute: "moderator",
  unmute: "moderator",
  ban: "moderator",
  unban: "moderator",
  kick: "moderator",
  "reports.read": "moderator",
  "reports.handle": "moderator",
  "players.read": "moderator",
  "sanctions.read": "moderator",
  "chat.read": "moderator",
  "flags.read": "moderator",
  "flags.clear": "moderator",
  teleport: "admin",
  give: "admin",
  broadcast: "admin",
  restart: "admin",
  drain: "admin",
  "save-all": "admin",
  backup: "admin",
  "content.reload": "admin",
  "audit.read": "admin",
  "stats.read": "admin",
  "log.read": "admin",
  "role.grant": "admin",
  "role.revoke": "admin",
  "monitor.login": "admin",
  /** `/admin <code>`: the ADMIN_CODE fallback, open to whoever knows the code. */
  "admin.code": "player",
} as const satisfies Record<string, StaffRole>;
export type StaffAct = keyof typeof STAFF_ACTS;

export const mayDo = (role: StaffRole, act: StaffAct) => rank(role) >= rank(STAFF_ACTS[act]);

/** Refuse an act the role may not do (FORBIDDEN, naming the role it needs). */
export function requireRole(role: StaffRole, act: StaffAct): void {
  if (!mayDo(role, act)) throw new GameError("FORBIDDEN", `${act} is for ${STAFF_ACTS[act]}s${STAFF_ACTS[act] === "moderator" ? " and admins" : ""}`);
}

/**
 * May staff of `actor`'s role sanction (mute, ban, kick) an account of `target`'s role? Only one
 * of a lower role: a moderator never sanctions another moderator or an admin (an admin revokes the
 * role first). TARGET_IS_STAFF otherwise.
 */
export function requireOutranks(actor: StaffRole, target: StaffRole): void {
  if (rank(target) >= rank(actor))
    throw new GameError("TARGET_IS_STAFF", `That player is ${target === "admin" ? "an admin" : `a ${target}`}: only a higher role may sanction them`);
}

export type SanctionKind = "mute" | "ban";

/** The longest timed sanction; longer is `permanent`. */
export const MAX_SANCTION_MS = 10 * 365 * 24 * 3600_000;
/** Reasons are short sentences: at most this many characters. */
export const MAX_REASON_LENGTH = 500;

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3600_000, d: 24 * 3600_000, w: 7 * 24 * 3600_000 };

/**
 * A sanction's duration: `<n>m`, `<n>h`, `<n>d` or `<n>w` (a whole number from 1, at most 10
 * years in all), or `permanent` (null). INVALID_DURATION otherwise.
 */
export function parseDuration(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (t === "permanent" || t === "perm") return null;
  const m = /^(\d{1,6})([mhdw])$/.exec(t);
  const ms = m ? Number(m[1]) * UNIT_MS[m[2]] : NaN;
  if (!m || !(ms > 0) || ms > MAX_SANCTION_MS) {
    throw new GameError("INVALID_DURATION", 'A duration is a whole number with m, h, d or w (30m, 12h, 7d, 2w; at most 10 years), or "permanent"');
  }
  return ms;
}

/** A reason as stored: trimmed, 1–500 characters. REASON_REQUIRED when empty. */
export function checkReason(reason: string | undefined, required = true): string | undefined {
  const r = (reason ?? "").trim();
  if (!r) {
    if (required) throw new GameError("REASON_REQUIRED", "Give a reason");
    return undefined;
  }
  if (r.length > MAX_REASON_LENGTH) throw new GameError("REASON_TOO_LONG", `A reason is at most ${MAX_REASON_LENGTH} characters`);
  return r;
}

/**
 * A staff command's words: the first is a player's name, written as it is when it has no space,
 * or in double quotes when it has ("Big Bob"); the rest are split on spaces. `{ name, rest }`:
 * rest is the text after the name (MISSING_NAME when there is none).
 */
export function splitNamed(text: string): { name: string; rest: string } {
  const t = text.trim();
  if (!t) throw new GameError("MISSING_NAME", "Name a player");
  if (t.startsWith('"')) {
    const end = t.indexOf('"', 1);
    if (end < 0) throw new GameError("MISSING_NAME", 'A quoted name needs its closing quote: "Big Bob"');
    const name = t.slice(1, end).trim();
    if (!name) throw new GameError("MISSING_NAME", "Name a player");
    return { name, rest: t.slice(end + 1).trim() };
  }
  const space = t.search(/\s/);
  return space < 0 ? { name: t, rest: "" } : { name: t.slice(0, space), rest: t.slice(space + 1).trim() };
}

/** `/mute` and `/ban`: `<name> <duration> <reason>`. */
export function parseSanctionCommand(kind: SanctionKind, text: string): { name: string; durationMs: number | null; reason: string } {
  const { name, rest } = splitNamed(text);
  const space = rest.search(/\s/);
  const durationText = space < 0 ? rest : rest.slice(0, space);
  if (!durationText) throw new GameError("INVALID_DURATION", `Usage: /${kind} <name> <duration: 30m, 12h, 7d, 2w or permanent> <reason>`);
  const durationMs = parseDuration(durationText);
  const reason = checkReason(space < 0 ? "" : rest.slice(space + 1))!;
  return { name, durationMs, reason };
}

/** When a sanction given now ends (null: never). */
export const sanctionEnd = (now: number, durationMs: number | null): Date | null => (durationMs === null ? null : new Date(now + durationMs));

/** How a sanction's end reads in a message: "until 2026-12-01 10:00 UTC" or "permanently". */
export function describeEnd(endsAt: Date | string | null): string {
  if (endsAt === null) return "permanently";
  const iso = new Date(endsAt).toISOString();
  return `until ${iso.slice(0, 16).replace("T", " ")} UTC`;
}

/** What a banned account is told at every way in: the reason and the end. */
export const bannedMessage = (reason: string, until: Date | string | null) => `You are banned ${describeEnd(until)}: ${reason}`;
/** What a muted player is told when it speaks. */
export const mutedMessage = (reason: string, until: Date | string | null) => `You are muted ${describeEnd(until)}: ${reason}`;

/** Lines of chat kept per player for reports, and at most attached to one. */
export const REPORT_CHAT_LINES = 20;
/** Reports one account may file within REPORT_WINDOW_MS. */
export const REPORTS_PER_WINDOW = 5;
export const REPORT_WINDOW_MS = 10 * 60_000;

/** A broadcast's text: trimmed, 1–300 characters. */
export const MAX_BROADCAST_LENGTH = 300;
export function checkBroadcast(message: string | undefined): string {
  const m = (message ?? "").trim();
  if (!m) throw new GameError("EMPTY_MESSAGE", "the message is empty");
  if (m.length > MAX_BROADCAST_LENGTH) throw new GameError("MESSAGE_TOO_LONG", `A broadcast is at most ${MAX_BROADCAST_LENGTH} characters`);
  return m;
}

/** A scheduled restart: at least 10 s, at most an hour ahead. */
export const RESTART_MIN_S = 10;
export const RESTART_MAX_S = 3600;
/** Seconds before a restart at which the countdown is broadcast (those within the delay). */
export const RESTART_STEPS_S = [1800, 900, 600, 300, 120, 60, 30, 10] as const;
/** In the last this many seconds before a restart, new joins are refused (RESTARTING). */
export const RESTART_CLOSED_S = 30;

/** The countdown steps of a restart `inSeconds` away: the delay itself first, then each step below it. */
export function restartSteps(inSeconds: number): number[] {
  return [inSeconds, ...RESTART_STEPS_S.filter((s) => s < inSeconds)];
}

/** "5 minutes", "30 seconds", "1 minute". */
export function describeSeconds(s: number): string {
  if (s >= 60 && s % 60 === 0) return `${s / 60} minute${s === 60 ? "" : "s"}`;
  return `${s} second${s === 1 ? "" : "s"}`;
}
