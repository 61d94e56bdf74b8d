// vitest global setup for the `bed` project: builds the controllers' bundles (what the bed runs; turbo rebuilds only
// what changed), then one shared test bed per run, provided to tests as `bed` (read it with inject('bed')), stopped
// after the last test. ZKOAM_BED_DIR chooses its directory (kept afterwards); ZKOAM_KEEP_BED=1 keeps the default
// temporary one, with its logs.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { pino } from 'pino';
import { resolveBinaries, startBed, type BedInfo } from './bed/index.js';
import { repoRoot } from './bed/paths.js';

declare module 'vitest' {
  export interface ProvidedContext {
    bed: BedInfo;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const log = pino({ name: 'bed', level: process.env['ZKOAM_BED_LOG_LEVEL'] ?? 'info' });
  log.info('building the controllers (npm run build)');
  execFileSync(join(repoRoot(), 'node_modules/.bin/turbo'), ['run', 'build', '--output-logs=errors-only'], { cwd: repoRoot(), stdio: 'inherit' });
  const bed = await startBed({
    log,
    binaries: await resolveBinaries(process.env),
    keepDir: process.env['ZKOAM_KEEP_BED'] === '1',
    ...(process.env['ZKOAM_BED_DIR'] ? { dir: process.env['ZKOAM_BED_DIR'] } : {}),
  });
  project.provide('bed', bed.info);
  return () => bed.stop();
}
