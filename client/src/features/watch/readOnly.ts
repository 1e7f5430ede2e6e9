/** What a spectator may still use: the tabs, the zoom and the watch's own parts (none sends a room message). */
const ALLOWED = "#tabs, .zoom, .watch-ok";

const POINTER_EVENTS = ["click", "dblclick", "auxclick", "contextmenu", "mousedown", "mouseup", "submit", "change", "input"] as const;
const KEY_EVENTS = ["keydown", "keyup", "keypress"] as const;

/**
 * Watch mode is read-only: before any of the page's own listeners (on the window, in the capture
 * phase), a click, a right click, a form or a key on anything in `root` that acts (the map, the
 * minimap, the pack's slots, the worn items, the dialogue's answers, a menu) is stopped there, so
 * nothing the viewer does reaches a handler that would send a room message. Hovering still shows
 * names and examine texts, the wheel still zooms. (The connection sends nothing either:
 * watchConnection.ts.)
 */
export function installReadOnly(root: HTMLElement) {
  const allowed = (target: EventTarget | null) => target instanceof Element && target.closest(ALLOWED) !== null;
  const stopPointer = (ev: Event) => {
    if (!(ev.target instanceof Node) || !root.contains(ev.target) || allowed(ev.target)) return;
    ev.stopPropagation();
    ev.preventDefault();
  };
  // Keys act nowhere in watch mode (the chat box is gone); their browser defaults (scrolling, shortcuts) stay.
  const stopKey = (ev: Event) => {
    if (!allowed(ev.target)) ev.stopPropagation();
  };
  for (const type of POINTER_EVENTS) window.addEventListener(type, stopPointer, { capture: true });
  for (const type of KEY_EVENTS) window.addEventListener(type, stopKey, { capture: true });
}
