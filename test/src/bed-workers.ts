// How many beds a test run starts: one per worker of the vitest `bed` project, each running its own test files, so that
// one file's waits (elections, rollouts, requeues) overlap another's work. ZKOAM_BEDS sets it (1 runs files one after
// another, as on a loaded machine); vitest.config.ts and the global setup both read it here.
import { z } from 'zod';

// Three on these 2-core machines (CI15, 2026-11-29): the bed files' waits overlap more than their work slows down. Each
// file took about 40% longer (2,816 s summed against 2,139 s with two beds), but the bed files ended 90 s sooner (at
// about 1,020 s from their start, against 1,111 s), with the machine's two cores near full (1.47 of 2 on average).
const DEFAULT_BEDS = 3;
const bedsSchema = z.coerce.number().int().min(1).max(8);

/** The number of beds (and bed workers) for this run, from the environment the caller passes. */
export function bedWorkers(env: Partial<Record<string, string | undefined>>): number {
  const value = env['ZKOAM_BEDS'];
  if (value === undefined || value === '') return DEFAULT_BEDS;
  const parsed = bedsSchema.safeParse(value);
  if (!parsed.success) throw new Error(`ZKOAM_BEDS must be a whole number from 1 to 8, not ${JSON.stringify(value)}`);
  return parsed.data;
}
