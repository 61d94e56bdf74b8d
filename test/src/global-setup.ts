// vitest global setup for the `bed` project: builds the controllers' bundles (turbo rebuilds only what changed; tests
// that run a controller as a local process run them) and the images the beds' nodes run (cached by content), serves
// them from one registry that every bed's nodes pull from, then starts one test bed per bed worker (bed-workers.ts), side by side, provided to tests as `beds`
// (a test file reads its own with workerBed()), and stops them after the last test. ZKOAM_BED_DIR chooses their
// directory (kept afterwards; one subdirectory per bed when there are several); ZKOAM_KEEP_BED=1 keeps the default
// temporary ones, with their logs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { pino } from 'pino';
import { resolveBinaries, startBed, type Bed, type BedInfo } from './bed/index.js';
import { serveBedImages } from './bed/bed.js';
import { repoRoot } from './bed/paths.js';
import { bedWorkers } from './bed-workers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    beds: BedInfo[];
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const log = pino({ name: 'bed', level: process.env['ZKOAM_BED_LOG_LEVEL'] ?? 'info' });
  log.info('building the controllers (npm run build)');
  execFileSync(join(repoRoot(), 'node_modules/.bin/turbo'), ['run', 'build', '--output-logs=errors-only'], { cwd: repoRoot(), stdio: 'inherit' });
  const binaries = await resolveBinaries(process.env);
  // Once for every bed: the beds start side by side, and two builds into one buildah storage would collide.
  log.info('building the images the beds run (npm run images, cached by content) and serving them from a registry');
  const registryDir = mkdtempSync(join(tmpdir(), 'zkoam-registry-'));
  const { registry, images } = await serveBedImages(registryDir, log);
  const count = bedWorkers(process.env);
  const chosenDir = process.env['ZKOAM_BED_DIR'];
  const starting = Array.from({ length: count }, (_, index) =>
    startBed({
      log,
      binaries,
      images,
      keepDir: process.env['ZKOAM_KEEP_BED'] === '1',
      ...(chosenDir ? { dir: count === 1 ? chosenDir : join(chosenDir, String(index + 1)) } : {}),
    }),
  );
  const results = await Promise.allSettled(starting);
  const beds = results.flatMap((result): Bed[] => (result.status === 'fulfilled' ? [result.value] : []));
  const stopAll = async (): Promise<void> => {
    await Promise.all(beds.map((bed) => bed.stop()));
    await registry.stop();
    rmSync(registryDir, { recursive: true, force: true });
  };
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) {
    await stopAll();
    throw failure.reason;
  }
  project.provide('beds', beds.map((bed) => bed.info));
  return stopAll;
}
