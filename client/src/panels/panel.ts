import type { Game } from "../game.js";

/** A side panel: drawn again whenever the player's state changes or the panel asks for it. */
export interface Panel {
  name: string;
  render(game: Game): HTMLElement;
}
