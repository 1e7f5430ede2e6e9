/**
 * When each phase of a start ended, as performance marks named `start:<phase>` (src/launch.mjs,
 * which cannot import TypeScript, makes its own the same way). `npm start` reports them, in ms
 * since the process began, on its "server listening" line (`startup`), and `npm run bench:startup`
 * prints them phase by phase.
 */
const PREFIX = "start:";

/** The phase `phase` ends now. */
export function markStart(phase: string): void {
  performance.mark(`${PREFIX}${phase}`);
}

/** Each phase marked so far, in the order they ended: ms since the process began. */
export function startTimes(): Record<string, number> {
  const marks = performance.getEntriesByType("mark").filter((m) => m.name.startsWith(PREFIX));
  return Object.fromEntries(marks.map((m) => [m.name.slice(PREFIX.length), Math.round(m.startTime)]));
}
