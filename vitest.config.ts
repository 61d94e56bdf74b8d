// Two projects: fast unit tests beside the code, and test-bed tests that share one real bed per run.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['apis/src/**/*.test.ts', 'controllers/*/src/**/*.test.ts', 'console/src/**/*.test.ts', 'test/src/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'bed',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/src/global-setup.ts'],
          testTimeout: 600_000,
          hookTimeout: 600_000,
          fileParallelism: false,
          maxWorkers: 1,
        },
      },
    ],
  },
});
