// The bed a test file runs on: the global setup starts one per worker of the `bed` project, and each worker (vitest's
// VITEST_POOL_ID, counted from 1) keeps to its own, so that files running side by side never share a cluster.
import { inject } from 'vitest';
import type { BedInfo } from './bed/index.js';

export function workerBed(): BedInfo {
  const beds = inject('beds');
  const pool = Number(process.env['VITEST_POOL_ID'] ?? '1');
  const bed = beds[(pool - 1) % beds.length];
  if (bed === undefined) throw new Error(`no bed for vitest pool ${String(pool)} (${String(beds.length)} started)`);
  return bed;
}
