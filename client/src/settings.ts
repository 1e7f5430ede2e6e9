/** The chat box's filters, in the order of their buttons (client/src/chatFilters.ts). */
export const CHAT_FILTERS = ["all", "game", "public", "private"] as const;
export type ChatFilter = (typeof CHAT_FILTERS)[number];

/** What the player chose, kept in the browser (localStorage) from visit to visit. */
export interface Settings {
  /** Pixels per tile on the map. */
  zoom: number;
  /** Run instead of walk (each move's `run`). */
  run: boolean;
  /** Names over everyone's heads. */
  names: boolean;
  /** Xp drops rising over the map. */
  xpDrops: boolean;
  /** Roofs over the buildings (never over the one the player is in). */
  roofs: boolean;
  /** The first-visit hint was read and put away. */
  hintSeen: boolean;
  /** No sound effects and no music (client/src/sound.ts). */
  muted: boolean;
  /** The world's music, made in code (client/src/music.ts), while the sound is on. */
  music: boolean;
  /** Which lines the chat box shows (client/src/chatFilters.ts). */
  chatFilter: ChatFilter;
}

const KEY = "arena.settings";
export const ZOOMS = [16, 20, 24, 28, 32, 40, 48];
const DEFAULTS: Settings = { zoom: 28, run: false, names: true, xpDrops: true, roofs: true, hintSeen: false, muted: false, music: true, chatFilter: "all" };

function read(): Settings {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? "{}") as Partial<Settings>;
    const s = { ...DEFAULTS, ...saved };
    if (!ZOOMS.includes(s.zoom)) s.zoom = DEFAULTS.zoom;
    if (!CHAT_FILTERS.includes(s.chatFilter)) s.chatFilter = DEFAULTS.chatFilter;
    return s;
  } catch {
    return { ...DEFAULTS };
  }
}

const current = read();
const listeners: Array<(s: Settings) => void> = [];

export const settings: Readonly<Settings> = current;

/** Change some settings: saved at once, and every listener told. */
export function setSettings(change: Partial<Settings>) {
  Object.assign(current, change);
  localStorage.setItem(KEY, JSON.stringify(current));
  for (const fn of listeners) fn(current);
}

export function onSettings(fn: (s: Settings) => void) {
  listeners.push(fn);
}

/** The next zoom step in or out. */
export function zoomStep(zoom: number, by: 1 | -1): number {
  const i = ZOOMS.indexOf(zoom);
  return ZOOMS[Math.max(0, Math.min(ZOOMS.length - 1, (i < 0 ? ZOOMS.indexOf(DEFAULTS.zoom) : i) + by))]!;
}
