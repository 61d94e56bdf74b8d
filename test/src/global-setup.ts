// vitest global setup for the `bed` project: one shared test bed per run, provided to tests as `bed`
// (read it with inject('bed')), stopped after the last test. ZKOAM_BED_DIR chooses its directory (kept
// afterwards); ZKOAM_KEEP_BED=1 keeps the default temporary one, with its logs.
import type { TestProject } from 'vitest/node';
import { pino } from 'pino';
import { resolveBinaries, startBed, type BedInfo } from './bed/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    bed: BedInfo;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const log = pino({ name: 'bed', level: process.env['ZKOAM_BED_LOG_LEVEL'] ?? 'info' });
  const bed = await startBed({
    log,
    binaries: await resolveBinaries(process.env),
    keepDir: process.env['ZKOAM_KEEP_BED'] === '1',
    ...(process.env['ZKOAM_BED_DIR'] ? { dir: process.env['ZKOAM_BED_DIR'] } : {}),
  });
  project.provide('bed', bed.info);
  return () => bed.stop();
}
