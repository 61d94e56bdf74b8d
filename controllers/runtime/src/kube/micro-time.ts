// MicroTime: RFC 3339 with microseconds, the format Lease and events.k8s.io timestamps require.
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
