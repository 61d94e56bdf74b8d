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
 * A Markdown table comparing columns with a baseline: a row per size and figure, with the median and spread of each
 * column's repetitions and, for every other column, the ratio of its median to the baseline's.
 */
export function comparisonTable(options: {
  figures: readonly Figure[];
  sizes: readonly number[];
  sizeHeader: string;
  columns: readonly string[];
  baseline: string;
  samples: (column: string, size: number) => readonly Sample[];
}): string[] {
  const { figures, sizes, sizeHeader, columns, baseline, samples } = options;
  const compared = columns.filter((column) => column !== baseline);
  const header = [`figure`, sizeHeader, ...columns, ...compared.map((column) => `${column} / ${baseline}`)];
  const rows = [`| ${header.join(' | ')} |`, `|${' --- |'.repeat(header.length)}`];
  for (const size of sizes) {
    for (const figure of figures) {
      const values = (column: string): number[] => samples(column, size).map((sample) => sample[figure.key] ?? Number.NaN);
      const base = median(values(baseline));
      const cells = [figure.label, String(size), ...columns.map((column) => cell(values(column), figure.digits)), ...compared.map((column) => ratio(median(values(column)), base))];
      rows.push(`| ${cells.join(' | ')} |`);
    }
  }
  return rows;
}
