// Reads a Prometheus text exposition (a controller's /metrics) the one way the tests do.

/** The values of `metric`'s series whose labels include every one of `labels` (all its series for none). */
export function sampleValues(exposition: string, metric: string, labels: Record<string, string> = {}): number[] {
  const series = new RegExp(`^${metric}(?:\\{([^}]*)\\})? (\\S+)$`, 'gm');
  return [...exposition.matchAll(series)]
    .filter(([, labelText = '']) => Object.entries(labels).every(([label, value]) => labelText.includes(`${label}="${value}"`)))
    .map(([, , value]) => Number(value));
}
