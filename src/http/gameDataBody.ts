import type { GameData } from "../manifests/index.js";

/**
 * A public JSON body made from the game data: made once per version of the data, and again after a
 * content reload replaced it (src/staff/contentReload.ts).
 */
export function bodyOfData(make: (data: GameData) => unknown): (data: GameData) => string {
  const made = new WeakMap<GameData, string>();
  return (data) => {
    let body = made.get(data);
    if (body === undefined) made.set(data, (body = JSON.stringify(make(data))));
    return body;
  };
}
