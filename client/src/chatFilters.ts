import { h } from "./dom.js";
import type { LogKind } from "./game.js";
import { CHAT_FILTERS, onSettings, setSettings, settings, type ChatFilter } from "./settings.js";

const LABELS: Record<ChatFilter, string> = { all: "All", game: "Game", public: "Public", private: "Private" };

/**
 * The kinds of line each filter shows. Staff broadcasts and errors show under every filter; the
 * lines of xp only under All (the xp drops over the map tell them too), so that under Game they do
 * not bury the quest's steps.
 */
const SHOWS: Record<ChatFilter, ReadonlySet<LogKind>> = {
  all: new Set<LogKind>(["local", "world", "private", "system", "xp", "broadcast", "error"]),
  game: new Set<LogKind>(["system", "broadcast", "error"]),
  public: new Set<LogKind>(["local", "world", "broadcast", "error"]),
  private: new Set<LogKind>(["private", "broadcast", "error"]),
};

export function filterShows(filter: ChatFilter, kind: LogKind): boolean {
  return SHOWS[filter].has(kind);
}

/**
 * The row of filter buttons over the chat's lines. The lines a filter hides stay in the box (a
 * class on the log hides them), so choosing All again shows them all; a filter with lines the
 * current one hides gets an unread mark until chosen. The choice is kept with the settings.
 * Returns what the chat box calls for each new line.
 */
export function installChatFilters(row: HTMLElement, log: HTMLElement): (kind: LogKind) => void {
  document.head.append(h("style", { textContent: hidingRules() }));
  const buttons = new Map<ChatFilter, HTMLButtonElement>();
  for (const f of CHAT_FILTERS) {
    const b = h("button", { type: "button", textContent: LABELS[f], title: `Show ${f === "all" ? "every line" : `${LABELS[f].toLowerCase()} lines`}` });
    b.dataset.filter = f;
    b.onclick = () => setSettings({ chatFilter: f });
    buttons.set(f, b);
    row.append(b);
  }
  const show = (filter: ChatFilter) => {
    for (const f of CHAT_FILTERS) log.classList.toggle(`only-${f}`, f === filter);
    for (const [f, b] of buttons) {
      b.classList.toggle("active", f === filter);
      b.setAttribute("aria-pressed", String(f === filter));
      if (f === filter) b.classList.remove("unread");
    }
    log.scrollTop = log.scrollHeight;
  };
  show(settings.chatFilter);
  let shown = settings.chatFilter;
  onSettings((s) => s.chatFilter !== shown && show((shown = s.chatFilter)));
  return (kind) => {
    if (filterShows(shown, kind)) return;
    for (const [f, b] of buttons) if (f !== "all" && f !== shown && filterShows(f, kind)) b.classList.add("unread");
  };
}

/** The CSS that hides, under each filter, the lines it does not show (from SHOWS, their one source). */
function hidingRules(): string {
  const kinds = [...SHOWS.all];
  const hidden = CHAT_FILTERS.flatMap((f) => kinds.filter((k) => !filterShows(f, k)).map((k) => `.chat .log.only-${f} > .${k}`));
  return `${hidden.join(",\n")} {\n  display: none;\n}`;
}
