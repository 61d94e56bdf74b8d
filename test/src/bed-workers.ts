// How many beds a test run starts: one per worker of the vitest `bed` project, each running its own test files, so that
// one file's waits (elections, rollouts, requeues) overlap another's work. ZKOAM_BEDS sets it (1 runs files one after
// another, as on a loaded machine); vitest.config.ts and the global setup both read it here.
import { z } from 'zod';

// Two on these 2-core machines. Three won on a quick machine (CI15, 2026-11-29: bed files ended at 1,020 s against 1,111 s
// with two, the cores 1.47 of 2 busy), but on a slower day the third bed is what tips the cores over: on 2026-11-30 the
// harness summed 5,727 s of bed files (2,866 s here the day before), and here two runs with three beds kept the CPU
// pressure at 95% and a load of 25-33, until two 5-member rolls side by side outlasted their test's 600 s. A third bed
// saves 8% of the suite on a good day and costs failures on a bad one.
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
