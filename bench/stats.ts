import { percentiles } from "../rooms/tickLoop.js";

export { percentiles };

export const median = (values: readonly number[]) => percentiles(values).median;

export function mean(values: readonly number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

export function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** a / b, or null when there is no baseline to divide by. */
export function ratio(a: number, b: number): number | null {
  return b > 0 ? a / b : null;
}

export const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;

/** A fixed-width text table: right-aligned cells, a rule under the header. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i])).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

export function fmt(v: number | null | undefined, digits = 1): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "-";
  return v.toFixed(digits);
}

export function fmtRatio(v: number | null): string {
  return v === null ? "-" : `x${v.toFixed(2)}`;
}

/** Bytes as KB (1000) with one decimal. */
export const kb = (bytes: number) => bytes / 1000;
