import { GameError } from "../types.js";

/**
 * Player variables: small values a feature keeps on each player (a setting such as auto-retaliate,
 * a cooldown, a counter), declared once by the feature with what the engine does with them: kept
 * with the character, sent to its player in `player:sync`'s `vars`, set by its player with
 * `player:setting`. A new feature's state needs no column, no message and no sync code of its own.
 */
export type VarValue = number | boolean;

export interface PlayerVarDef {
  /** What a new character has, and one saved before the variable existed. */
  initial: VarValue;
  /** Kept with the character (the characters row's `vars`) instead of starting again at each login. */
  saved?: boolean;
  /** Sent to its player in `player:sync`'s `vars`. */
  synced?: boolean;
  /** Its player may set it with `player:setting` (a boolean, or a whole number from `min` to `max`). */
  settable?: boolean;
  min?: number;
  max?: number;
}

export type PlayerVars = Record<string, VarValue>;

/** The player variables of a world, each declared once, by one feature. */
export class VarRegistry {
  private readonly defs = new Map<string, PlayerVarDef & { feature: string }>();

  declare(feature: string, vars: Readonly<Record<string, PlayerVarDef>>) {
    for (const [name, def] of Object.entries(vars)) {
      const other = this.defs.get(name);
      if (other) throw new Error(`player variable ${name} of ${feature} is already declared by ${other.feature}`);
      this.defs.set(name, { ...def, feature });
    }
  }

  /**
   * A player's variables as it enters the world: each declared one from what was saved (when it is
   * saved and the saved value is of its kind, within its bounds), else its initial value. A saved
   * value no declared variable claims (a feature no longer run) is carried, so a save gives it back.
   */
  load(saved: Readonly<Record<string, unknown>> | undefined): PlayerVars {
    const vars: PlayerVars = {};
    for (const [name, value] of Object.entries(saved ?? {})) if (!this.defs.has(name) && isVarValue(value)) vars[name] = value;
    for (const [name, def] of this.defs) {
      const was = saved?.[name];
      vars[name] = def.saved && fits(def, was) ? was : def.initial;
    }
    return vars;
  }

  /** Does a save keep this variable? The saved ones, and those no declared variable claims (carried). */
  readonly kept = (name: string): boolean => {
    const def = this.defs.get(name);
    return def ? def.saved === true : true;
  };

  /** What `player:sync` shows its player. */
  synced(vars: PlayerVars): PlayerVars {
    const out: PlayerVars = {};
    for (const [name, def] of this.defs) if (def.synced) out[name] = vars[name] ?? def.initial;
    return out;
  }

  /** The names a player may set, for the documentation and the errors. */
  settable(): string[] {
    return [...this.defs].filter(([, d]) => d.settable).map(([name]) => name);
  }

  /** A player's `player:setting`: refused for a name it may not set, or a value not of its kind. */
  checkSetting(name: string, value: unknown): VarValue {
    const def = this.defs.get(name);
    if (!def?.settable) throw new GameError("UNKNOWN_SETTING", `There is no setting called ${name}; settings: ${this.settable().join(", ") || "none"}`);
    if (!fits(def, value)) {
      const kind = typeof def.initial === "boolean" ? "true or false" : `a whole number from ${def.min ?? 0} to ${def.max ?? 0}`;
      throw new GameError("INVALID_SETTING", `${name} takes ${kind}`);
    }
    return value;
  }
}

const isVarValue = (v: unknown): v is VarValue => typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));

function fits(def: PlayerVarDef, v: unknown): v is VarValue {
  if (typeof def.initial === "boolean") return typeof v === "boolean";
  return typeof v === "number" && Number.isInteger(v) && v >= (def.min ?? Number.MIN_SAFE_INTEGER) && v <= (def.max ?? Number.MAX_SAFE_INTEGER);
}
