/**
 * State shared by the steps of one load: where the data lives, whether it is validated strictly,
 * and the warnings collected so far (each one also goes to the log).
 */
import type { Logger } from "pino";
import type { z } from "zod";
import { ManifestError } from "./errors.js";
import { describeIssues, itemQuantitySchema } from "./schemas.js";
import type { ItemQuantity } from "./shapes.js";

export class LoadContext {
  readonly warnings: string[] = [];

  constructor(
    readonly dir: string,
    readonly logger: Logger,
    /** false when SKIP_MANIFESTS asked for a lenient load: nothing is fatal, references are not checked. */
    readonly validate: boolean,
  ) {}

  /** Record a skipped record or reference. The line always starts with the file it concerns. */
  warn(file: string, message: string): void {
    const line = `${file}: ${message}`;
    this.warnings.push(line);
    this.logger.warn({ manifest: file }, line);
  }

  /**
   * Check a file's top-level shape. A required file with the wrong shape stops start-up
   * (unless the load is lenient); an optional one is skipped with a warning.
   */
  topLevel<S extends z.ZodType>(schema: S, value: unknown, file: string, required: boolean): z.infer<S> | undefined {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const why = describeIssues(result.error);
    if (required && this.validate) {
      throw new ManifestError(file, `${file} has an invalid top-level shape (${why})`);
    }
    this.warn(file, `invalid top-level shape (${why}); file skipped`);
    return undefined;
  }

  /** Validate one record; an invalid record is skipped with a warning naming it. */
  record<S extends z.ZodType>(schema: S, value: unknown, file: string, label: string): z.infer<S> | undefined {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    this.warn(file, `${label} is invalid (${describeIssues(result.error)}); skipped`);
    return undefined;
  }
}

/** A readable label for a record at an index: its id when it has one, else "#index". */
export function labelOf(value: unknown, index: number, idKeys: string[] = ["id"]): string {
  if (value && typeof value === "object") {
    for (const key of idKeys) {
      const v = (value as Record<string, unknown>)[key];
      if (typeof v === "string" && v.length > 0) return v;
    }
  }
  return `#${index}`;
}

/** Records keep their source object, minus nothing: a shallow copy so later edits do not leak. */
export function rawOf(value: unknown): Record<string, unknown> {
  return { ...(value as Record<string, unknown>) };
}

/** A list of items and quantities (a quest's or a template's); an invalid entry is skipped with a warning. */
export function itemList(ctx: LoadContext, file: string, list: unknown[] | null | undefined, label: string): ItemQuantity[] {
  const out: ItemQuantity[] = [];
  (list ?? []).forEach((value, i) => {
    const r = ctx.record(itemQuantitySchema, value, file, `${label} item ${labelOf(value, i, ["itemId"])}`);
    if (r) out.push({ itemId: r.itemId, quantity: r.quantity ?? 1 });
  });
  return out;
}
