import { byId } from "./dom.js";
import { closeMenu } from "./menus.js";
import type { WorldView } from "./view.js";

/** How long a finger rests without moving before its press opens the menu (a right click's). */
export const LONG_PRESS_MS = 500;
/** How far (CSS pixels) a finger may wander and still tap or long press; further, it drags. */
const SLOP_PX = 10;
/** How much two fingers spread (or close) for one zoom step in (or out). */
const PINCH_STEP = 1.25;
/** The narrow layout (client/style.css, "Touch and small screens"): the map fills the width. */
export const NARROW = "(max-width: 600px)";
/** The map's canvas (pixels) in the wide layout (index.html) and the narrow one, taller than wide. */
const WIDE_MAP = { width: 720, height: 528 } as const;
const NARROW_MAP = { width: 480, height: 560 } as const;

/** A screen played with fingers (a phone, a tablet): the page's words say tap and long press. */
export function touchScreen(): boolean {
  return matchMedia("(pointer: coarse)").matches || (matchMedia("(hover: none)").matches && navigator.maxTouchPoints > 0);
}

/** What the words of the page call a click and a right click on this screen. */
export function pointerWords(): { click: string; Click: string; rightClick: string } {
  return touchScreen() ? { click: "tap", Click: "Tap", rightClick: "long press" } : { click: "click", Click: "Click", rightClick: "right-click" };
}

/**
 * Touch play on the map (installed by the play path only, never in watch mode), through pointer
 * events of the "touch" kind, so the mouse's path (view.ts) is left as it is: a tap does what a
 * click does (walk, talk, attack, take…); a long press (LONG_PRESS_MS without moving) opens the
 * menu a right click opens; two fingers pinch the map's zoom (the +/− buttons' steps); a finger
 * that drags does nothing. The browser's own handling of touches on the map (its mouse events made
 * from them, its click, its long-press menu, page zoom and scroll) is turned off there
 * (`touch-action: none`, and the touches cancelled), so nothing is done twice or late. Also: the
 * map's canvas is taller than wide in the narrow layout, and a menu never opens past the screen's
 * right edge.
 */
export function installTouch(view: WorldView) {
  const canvas = byId<HTMLCanvasElement>("world");
  /** The fingers on the map now, where they are (client pixels). */
  const fingers = new Map<number, { x: number; y: number }>();
  /** The one-finger press being watched: where it started, its long-press timer, whether the long press fired. */
  let press: { start: PointerEvent; timer: ReturnType<typeof setTimeout>; fired: boolean } | null = null;
  /** This touch (until every finger is up) can no longer tap: it dragged, pinched or was cancelled. */
  let spoiled = false;
  /** The fingers' spread at the last zoom step of a pinch. */
  let pinchFrom: number | null = null;

  const isTouch = (ev: PointerEvent) => ev.pointerType === "touch";
  const spread = () => {
    const [a, b] = [...fingers.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  };
  const endPress = () => {
    if (press) clearTimeout(press.timer);
    press = null;
  };

  canvas.addEventListener("pointerdown", (ev) => {
    if (!isTouch(ev)) return;
    fingers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (fingers.size === 1) {
      spoiled = false;
      pinchFrom = null;
      const start = ev;
      press = {
        start,
        fired: false,
        timer: setTimeout(() => {
          if (!press || press.start !== start || spoiled) return;
          press.fired = true;
          view.click(start, true);
          navigator.vibrate?.(15);
        }, LONG_PRESS_MS),
      };
    } else {
      // A second finger: a pinch, never a tap or a long press.
      endPress();
      spoiled = true;
      pinchFrom = spread();
    }
  });

  canvas.addEventListener("pointermove", (ev) => {
    const finger = fingers.get(ev.pointerId);
    if (!isTouch(ev) || !finger) return;
    finger.x = ev.clientX;
    finger.y = ev.clientY;
    if (press && !press.fired && Math.hypot(ev.clientX - press.start.clientX, ev.clientY - press.start.clientY) > SLOP_PX) {
      // A drag: it does nothing.
      endPress();
      spoiled = true;
    }
    if (pinchFrom !== null && fingers.size >= 2) {
      const now = spread();
      if (pinchFrom > 0 && now / pinchFrom >= PINCH_STEP) {
        view.zoom(1);
        pinchFrom = now;
      } else if (now > 0 && pinchFrom / now >= PINCH_STEP) {
        view.zoom(-1);
        pinchFrom = now;
      }
    }
  });

  const lift = (ev: PointerEvent, cancelled: boolean) => {
    if (!isTouch(ev) || !fingers.delete(ev.pointerId)) return;
    if (press && !press.fired && !spoiled && !cancelled) {
      // A tap: what a click there does (the menu closes first, as a click on the map closes it).
      closeMenu();
      view.click(ev, false);
    }
    if (cancelled) spoiled = true;
    endPress();
    if (fingers.size < 2) pinchFrom = null;
  };
  canvas.addEventListener("pointerup", (ev) => lift(ev, false));
  canvas.addEventListener("pointercancel", (ev) => lift(ev, true));

  // The browser's own reading of the touches: no mouse events or click made from them, no
  // long-press menu or callout, no double-tap zoom (the pointer events above do it all).
  for (const type of ["touchstart", "touchmove", "touchend"] as const)
    canvas.addEventListener(type, (ev) => ev.cancelable && ev.preventDefault(), { passive: false });
  // Should a browser still send a click or a context menu made from a touch, the map ignores it.
  for (const type of ["click", "contextmenu"] as const)
    canvas.addEventListener(
      type,
      (ev) => {
        if ((ev as PointerEvent).pointerType === "touch" || fingers.size > 0) {
          ev.preventDefault();
          ev.stopImmediatePropagation();
        }
      },
      { capture: true },
    );

  fitMap(canvas);
  keepMenusOnScreen();
}

/** The map's canvas: taller than wide in the narrow layout (the CSS scales it to the width), as index.html has it otherwise. */
function fitMap(canvas: HTMLCanvasElement) {
  const narrow = matchMedia(NARROW);
  const fit = () => {
    const size = narrow.matches ? NARROW_MAP : WIDE_MAP;
    if (canvas.width !== size.width) canvas.width = size.width;
    if (canvas.height !== size.height) canvas.height = size.height;
  };
  narrow.addEventListener("change", fit);
  fit();
}

/** A menu opened near the screen's right edge (a long press there, a pack slot below the map) moves left to fit. */
function keepMenusOnScreen() {
  const menu = byId("menu");
  new MutationObserver(() => {
    if (menu.hidden) return;
    const over = menu.getBoundingClientRect().right - (document.documentElement.clientWidth - 4);
    if (over > 0) menu.style.left = `${Math.max(0, parseFloat(menu.style.left || "0") - over)}px`;
  }).observe(menu, { attributes: true, attributeFilter: ["hidden"], childList: true });
}
