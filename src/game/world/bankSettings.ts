import type { PlayerVarDef } from "./playerVars.js";

/**
 * The bank's own player variable: `bankPlaceholders` (off unless its player turns it on with
 * `player:setting`, kept with the character): withdrawing the last of an item leaves a placeholder.
 */
export const BANK_VARS = {
  bankPlaceholders: { initial: false, saved: true, synced: true, settable: true },
} as const satisfies Record<string, PlayerVarDef>;
