// Three projects: fast unit tests beside the code; test-bed tests, each worker of which runs its files on a real bed
// of its own (test/src/bed-workers.ts says how many); and the images, built from the Dockerfile, started by runc and
// pushed to a registry, and the bed's ZooKeeper images started by runc (no bed).
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { bedWorkers } from './test/src/bed-workers.js';
import { bedCacheDir } from './test/src/cache-dir.js';

const beds = bedWorkers(process.env);

export default defineConfig({
  // Outside the clone, like every other cache: vitest keeps each file's last duration there and starts the slowest
  // first, so that the bed workers finish together instead of one running a long file alone at the end. A fresh clone
  // (as CI's) would otherwise order the files by size.
  cacheDir: join(bedCacheDir(process.env), 'vitest'),
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['apis/src/**/*.test.ts', 'controllers/*/src/**/*.test.ts', 'console/src/**/*.test.ts', 'test/src/**/*.test.ts'],
          testTimeout: 30_000,
          // Each file in a fresh worker cost about 1 s of imports, 170 s for 150 files one after another (vitest's default on
          // 2 cores is one worker); sharing modules between files and two workers run them in 29 s. No unit test keeps state
          // in a module: fake timers are restored after each test.
          isolate: false,
          // As many as the bed's: vitest runs projects of one maxWorkers as one group, so the unit files (sorted last, the
          // quickest) fill the workers the bed's last files leave free; projects of two counts would refuse to run together.
          maxWorkers: beds,
        },
      },
      {
        test: {
          name: 'bed',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/src/global-setup.ts'],
          setupFiles: ['test/src/file-cleanup.ts'],
          testTimeout: 600_000,
          hookTimeout: 600_000,
          // A fresh worker per file imported client-node, zod and the controllers' modules again: about 2 s a file, 49
          // files. The test files themselves still run afresh; what they share (the bed, the pooled clients) is built
          // for sharing.
          isolate: false,
          fileParallelism: beds > 1,
          maxWorkers: beds,
        },
      },
      {
        test: {
          name: 'images',
          include: ['test/images/**/*.test.ts'],
          // A cold build took 25 minutes on a loaded 2-core machine with two Debian bases and five images; with the
          // ZooKeeper images' two bases and two images too, 13.5 minutes on a quieter one (8 + 5.5). Cached, seconds.
          testTimeout: 60_000,
          hookTimeout: 2_700_000,
          // Each file builds the images first: one after the other, the second finds them in the cache.
          fileParallelism: false,
        },
      },
    ],
  },
});
