/** Numbers and tables for the benchmarks' reports. Pure. */

const ascending = (values: readonly number[]) => [...values].sort((a, b) => a - b);
/** The sample at floor(q·n) of sorted values (the last one for q = 1). */
const at = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** The q-quantile of a list of numbers, as percentiles() takes it; 0 when there are none. */
export function quantile(values: readonly number[], q: number): number {
  return values.length === 0 ? 0 : at(ascending(values), q);
}

/** Median, 99th percentile and maximum of a list of numbers (all 0 when there are none). */
export function percentiles(values: readonly number[]): { median: number; p99: number; max: number } {
  if (values.length === 0) return { median: 0, p99: 0, max: 0 };
  const sorted = ascending(values);
  return { median: at(sorted, 0.5), p99: at(sorted, 0.99), max: sorted[sorted.length - 1] };
}

export const median = (values: readonly number[]) => percentiles(values).median;

export function mean(values: readonly number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

/** The most of the ascending `times` that fall within any one span of `windowMs`. */
export function peakWithin(times: readonly number[], windowMs: number): number {
  let peak = 0;
  for (let lo = 0, hi = 0; hi < times.length; hi++) {
    while (times[hi] - times[lo] >= windowMs) lo++;
    peak = Math.max(peak, hi - lo + 1);
  }
  return peak;
}

export function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** a / b, or null when there is no baseline to divide by (or either figure could not be measured). */
export function ratio(a: number | undefined, b: number | undefined): number | null {
  return a !== undefined && b !== undefined && b > 0 ? a / b : null;
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
