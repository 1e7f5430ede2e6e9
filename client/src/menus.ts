import { byId } from "./dom.js";

/** Whether the right-click (or slot) menu is open. */
export function menuOpen(): boolean {
  return !byId("menu").hidden;
}

/** Close the right-click (or slot) menu; false when none was open. */
export function closeMenu(): boolean {
  const menu = byId("menu");
  if (menu.hidden) return false;
  menu.hidden = true;
  return true;
}

/**
 * The menu never goes stale: a click anywhere but in it closes it, a click on the map or the
 * minimap too (the click does its own thing as well), and so does a right click anywhere but on
 * the map (which opens the map's menu there instead). A click on a pack slot opens that slot's
 * menu, so it is left to do that. (Escape closes it too: keyboard.ts.)
 */
export function installMenuDismissal() {
  const menu = byId("menu");
  const inMenu = (t: EventTarget | null) => t instanceof Node && menu.contains(t);
  const onSlot = (t: EventTarget | null) => t instanceof Element && t.closest(".slot") !== null;
  document.addEventListener("click", (ev) => {
    if (!inMenu(ev.target) && !onSlot(ev.target)) closeMenu();
  });
  document.addEventListener("contextmenu", (ev) => {
    if (!inMenu(ev.target) && !onSlot(ev.target) && !(ev.target instanceof HTMLCanvasElement && ev.target.id === "world")) closeMenu();
  });
}
