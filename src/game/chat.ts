/**
 * Chat: cleaning and classifying what players type, and the per-session admin code gate.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { GameError, type Tile } from "./types.js";

export const MAX_CHAT_LENGTH = 200;
/** Local chat reaches players within this many tiles (Chebyshev). */
export const CHAT_RANGE_TILES = 15;
/** Wrong admin codes a session may try before the gate locks for good. */
export const ADMIN_MAX_ATTEMPTS = 3;

export type ParsedChat =
  | { kind: "say"; message: string }
  /** `rest` is everything after the command word (e.g. the text of "/world hello there"). */
  | { kind: "command"; command: string; args: string[]; rest: string };

// Control characters (C0, DEL, C1) and the Unicode line/paragraph separators.
const CONTROL_RUNS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/;
const COMMAND_NAME = /^[a-z0-9_-]{1,32}$/;

/** Trim, and replace each run of control characters (and the whitespace around it) with one space. */
export function sanitizeChat(text: string): string {
  // Splitting (rather than one regex around the run) keeps this linear on hostile input.
  return text
    .split(CONTROL_RUNS)
    .map((piece) => piece.trim())
    .filter((piece) => piece.length > 0)
    .join(" ");
}

function length(text: string): number {
  return Array.from(text).length;
}

/**
 * Clean a chat line and tell a message from a command ("/name arg ..."; the name is lower-cased).
 * EMPTY_MESSAGE when nothing is left, MESSAGE_TOO_LONG past MAX_CHAT_LENGTH characters,
 * INVALID_MESSAGE for a non-string, INVALID_COMMAND for "/" without a usable name.
 */
/**
 * A line of chat as it is said (on any channel, a private message too): cleaned (sanitizeChat),
 * then 1 to MAX_CHAT_LENGTH characters, else EMPTY_MESSAGE / MESSAGE_TOO_LONG (INVALID_MESSAGE for a
 * non-string).
 */
export function chatText(text: string): string {
  if (typeof text !== "string") throw new GameError("INVALID_MESSAGE", "a chat message must be text");
  // Refuse absurd input before doing any work on it.
  if (text.length > MAX_CHAT_LENGTH * 8) throw new GameError("MESSAGE_TOO_LONG", `messages are at most ${MAX_CHAT_LENGTH} characters`);
  const clean = sanitizeChat(text);
  if (clean.length === 0) throw new GameError("EMPTY_MESSAGE", "the message is empty");
  if (length(clean) > MAX_CHAT_LENGTH) throw new GameError("MESSAGE_TOO_LONG", `messages are at most ${MAX_CHAT_LENGTH} characters`);
  return clean;
}

export function parseChat(text: string): ParsedChat {
  const clean = chatText(text);
  if (!clean.startsWith("/")) return { kind: "say", message: clean };

  const body = clean.slice(1);
  const match = /^(\S*)\s*([\s\S]*)$/.exec(body)!;
  const command = match[1]!.toLowerCase();
  if (!COMMAND_NAME.test(command)) throw new GameError("INVALID_COMMAND", "a command is / followed by its name");
  const rest = match[2]!.trim();
  const args = rest.length ? rest.split(/\s+/) : [];
  return { kind: "command", command, args, rest };
}

/** Whether two positions are close enough for local chat. */
export function withinChatRange(a: Tile, b: Tile, range = CHAT_RANGE_TILES): boolean {
  return Math.max(Math.abs(a.x - b.x), Math.abs(a.z - b.z)) <= range;
}

export type AdminAttempt = "granted" | "wrong" | "locked" | "unavailable";

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/** How long an account's /admin stays locked after its ADMIN_MAX_ATTEMPTS-th wrong code. */
export const ADMIN_LOCK_MS = 15 * 60_000;

/**
 * Wrong /admin codes counted per account, not per session, so reconnecting does not buy more
 * guesses: the ADMIN_MAX_ATTEMPTS-th wrong code locks the account's /admin for ADMIN_LOCK_MS
 * (counted from that code); then the count starts again. A right code clears the count.
 */
export class AdminLockouts {
  private readonly byAccount = new Map<string, { failures: number; lockedUntil: number }>();

  constructor(
    readonly maxAttempts = ADMIN_MAX_ATTEMPTS,
    readonly lockMs = ADMIN_LOCK_MS,
    private readonly now: () => number = Date.now,
  ) {}

  private entry(accountId: string) {
    const e = this.byAccount.get(accountId);
    if (e && e.lockedUntil > 0 && e.lockedUntil <= this.now()) {
      this.byAccount.delete(accountId); // the lock ran out
      return undefined;
    }
    return e;
  }

  isLocked(accountId: string): boolean {
    return (this.entry(accountId)?.lockedUntil ?? 0) > 0;
  }

  attemptsLeft(accountId: string): number {
    return Math.max(0, this.maxAttempts - (this.entry(accountId)?.failures ?? 0));
  }

  /** Count a wrong code; true when it locks the account. */
  fail(accountId: string): boolean {
    const e = this.entry(accountId) ?? { failures: 0, lockedUntil: 0 };
    e.failures++;
    if (e.failures >= this.maxAttempts) e.lockedUntil = this.now() + this.lockMs;
    this.byAccount.set(accountId, e);
    return e.lockedUntil > 0;
  }

  clear(accountId: string) {
    this.byAccount.delete(accountId);
  }
}

/**
 * One per session: whether this session has been granted admin, with the wrong codes counted in
 * the account's `AdminLockouts` (its own when none is shared). `tryCode` compares in constant time
 * (both sides hashed to equal length). No configured code: "unavailable" (and no attempt is
 * counted). A locked account answers "locked" to every try, even with the right code.
 */
export class AdminGate {
  private granted = false;
  private readonly lockouts: AdminLockouts;

  constructor(maxAttempts = ADMIN_MAX_ATTEMPTS, shared?: { lockouts: AdminLockouts; accountId: string }) {
    this.lockouts = shared?.lockouts ?? new AdminLockouts(maxAttempts);
    this.accountId = shared?.accountId ?? "";
  }

  private readonly accountId: string;

  get isAdmin(): boolean {
    return this.granted;
  }

  /** Take back a grant (its audit row could not be written). */
  revoke() {
    this.granted = false;
  }

  get isLocked(): boolean {
    return this.lockouts.isLocked(this.accountId);
  }

  get attemptsLeft(): number {
    return this.lockouts.attemptsLeft(this.accountId);
  }

  tryCode(given: unknown, expected: string | null | undefined): AdminAttempt {
    if (typeof expected !== "string" || expected.length === 0) return "unavailable";
    if (this.isLocked) return "locked";
    const ok = typeof given === "string" && given.length > 0 && timingSafeEqual(digest(given), digest(expected));
    if (ok) {
      this.granted = true;
      this.lockouts.clear(this.accountId);
      return "granted";
    }
    return this.lockouts.fail(this.accountId) ? "locked" : "wrong";
  }
}
