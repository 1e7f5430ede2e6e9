/**
 * A fatal problem with the game data: a required manifest is missing, a manifest is not valid
 * JSON, or a required manifest has the wrong top-level shape. Start-up stops on it. The message
 * always names the offending file (relative to the manifest directory).
 */
export class ManifestError extends Error {
  /** The manifest's path relative to the manifest directory, e.g. "npcs.json" or "items/food.json". */
  readonly file: string;
  /** Every fatal problem found, one line each (this one first); a content reload lists them all. */
  readonly problems: string[];

  constructor(file: string, message: string, more: string[] = []) {
    super(message.includes(file) ? message : `${file}: ${message}`);
    this.name = "ManifestError";
    this.file = file;
    this.problems = [this.message, ...more];
  }
}
