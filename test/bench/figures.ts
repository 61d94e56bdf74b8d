// How the benchmarks print a figure measured several times: median and spread, and the ratio of two medians.

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** `median (min-max)` of the finite values; `n/a` when there is none. */
export function cell(values: readonly number[], digits: number): string {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return 'n/a';
  const spread = finite.length > 1 ? ` (${Math.min(...finite).toFixed(digits)}-${Math.max(...finite).toFixed(digits)})` : '';
  return `${median(finite).toFixed(digits)}${spread}`;
}

/** a over b; a zero or missing denominator has no ratio. */
export function ratio(a: number, b: number): string {
  const value = a / b;
  return Number.isFinite(value) ? value.toFixed(2) : 'n/a';
}

/** One repetition's figures, by key. */
export type Sample = Record<string, number>;

export interface Figure {
  readonly key: string;
  readonly label: string;
  readonly digits: number;
}

/**
 * A Markdown table comparing two columns: a row per size and figure, with the median and spread of each column's
 * repetitions and the ratio first / second of the medians.
 */
export function comparisonTable(options: {
  figures: readonly Figure[];
  sizes: readonly number[];
  sizeHeader: string;
  first: string;
  second: string;
  samples: (column: string, size: number) => readonly Sample[];
}): string[] {
  const { figures, sizes, sizeHeader, first, second, samples } = options;
  const rows = [`| figure | ${sizeHeader} | ${first} | ${second} | ${first} / ${second} |`, '| --- | --- | --- | --- | --- |'];
  for (const size of sizes) {
    for (const figure of figures) {
      const values = (column: string): number[] => samples(column, size).map((sample) => sample[figure.key] ?? Number.NaN);
      const [a, b] = [values(first), values(second)];
      rows.push(`| ${figure.label} | ${String(size)} | ${cell(a, figure.digits)} | ${cell(b, figure.digits)} | ${ratio(median(a), median(b))} |`);
    }
  }
  return rows;
}
