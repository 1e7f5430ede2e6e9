/**
 * What the page keeps for this tab's session (sessionStorage: a reload keeps it, another tab
 * does not): the server login, the character it plays, whether a reload signs straight back in,
 * and the chat box's latest lines, so that a reload or a reconnect comes back to the same
 * character with the same chat.
 */

export interface SavedLogin {
  token: string;
  accountId: string;
  /** The character played last (joined again by id). */
  characterId?: string;
}

const LOGIN_KEY = "arena.token";
const AUTO_KEY = "arena.signedIn";
const CHAT_KEY = "arena.chat";
/** Chat lines kept for a reload (the chat box shows this many at most). */
export const KEPT_CHAT_LINES = 200;

function read<T>(key: string): T | undefined {
  try {
    const text = sessionStorage.getItem(key);
    return text === null ? undefined : (JSON.parse(text) as T);
  } catch {
    return undefined;
  }
}

function write(key: string, value: unknown) {
  try {
    sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or refused (a private window): the session is simply not kept.
  }
}

export function savedLogin(): SavedLogin | undefined {
  const login = read<SavedLogin>(LOGIN_KEY);
  return login && typeof login.token === "string" && typeof login.accountId === "string" ? login : undefined;
}

export function saveLogin(login: SavedLogin) {
  write(LOGIN_KEY, login);
}

/** The login was refused (expired, signed by another secret, its account gone): a new sign-in is needed. */
export function forgetLogin() {
  for (const key of [LOGIN_KEY, AUTO_KEY, CHAT_KEY]) sessionStorage.removeItem(key);
}

/** Whether a reload goes straight back into the world (true after a join, false after Log out). */
export function signsBackIn(): boolean {
  return read<boolean>(AUTO_KEY) === true && savedLogin() !== undefined;
}

export function setSignsBackIn(on: boolean) {
  write(AUTO_KEY, on);
}

/** A chat line as the chat box showed it (its kind one of game.ts's LogKind, kept as text). */
export interface KeptLine {
  text: string;
  kind: string;
}

export function keptChat(): KeptLine[] {
  const lines = read<KeptLine[]>(CHAT_KEY);
  return Array.isArray(lines) ? lines.filter((l) => typeof l?.text === "string" && typeof l?.kind === "string") : [];
}

export function keepChat(lines: KeptLine[]) {
  write(CHAT_KEY, lines.slice(-KEPT_CHAT_LINES));
}
