// How many beds a test run starts: one per worker of the vitest `bed` project, each running its own test files, so that
// one file's waits (elections, rollouts, requeues) overlap another's work. ZKOAM_BEDS sets it (1 runs files one after
// another, as on a loaded machine); vitest.config.ts and the global setup both read it here.
import { z } from 'zod';

const DEFAULT_BEDS = 2;
const bedsSchema = z.coerce.number().int().min(1).max(8);

/** The number of beds (and bed workers) for this run, from the environment the caller passes. */
export function bedWorkers(env: Partial<Record<string, string | undefined>>): number {
  const value = env['ZKOAM_BEDS'];
  if (value === undefined || value === '') return DEFAULT_BEDS;
  const parsed = bedsSchema.safeParse(value);
  if (!parsed.success) throw new Error(`ZKOAM_BEDS must be a whole number from 1 to 8, not ${JSON.stringify(value)}`);
  return parsed.data;
}
