/**
 * Work spread over ticks by id: an id's turn out of `turns` is a hash of it (FNV-1a), the same on
 * every call, so work done each tick for the ids whose turn it is (`tick % turns`) reaches every id
 * once in each run of `turns` ticks, and each tick about 1/turns of them.
 */
export function turnOf(id: string, turns: number): number {
  if (turns <= 1) return 0;
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h >>> 0) % turns;
}
