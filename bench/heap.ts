import v8 from "node:v8";
import vm from "node:vm";

let gc: (() => void) | undefined;

/**
 * Collect all the garbage now (a full GC), so that a measured window starts with none of what was
 * done before it left to collect: a major collection of the garbage a phase left behind (after
 * 1,000 clients left, several hundred MB) would otherwise be charged to whichever window it fell in.
 * Each window still pays for the garbage it makes itself.
 */
export function collectGarbage(): void {
  if (!gc) {
    v8.setFlagsFromString("--expose-gc");
    gc = vm.runInNewContext("gc") as () => void;
  }
  gc();
}
