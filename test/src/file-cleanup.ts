// vitest setup file of the `bed` project, run before each test file: after the file's own hooks, it stops any local
// controller process the file left running on its bed. Files share a bed one after another; a controller a file left
// behind (a hook that failed before its stop, the body of a test that timed out still running) would act in the next
// file's namespaces and hold its Leases: controller-pods once waited for a leader whose Lease such a process had taken.
import { afterAll } from 'vitest';
import { reapProcessesMentioning } from './bed/reap.js';
import { controllerProcessesDir, countEndedFile } from './controllers/controller-process.js';
import { workerBed } from './worker-bed.js';

afterAll(async () => {
  countEndedFile();
  const bed = workerBed();
  const left = await reapProcessesMentioning(`${controllerProcessesDir(bed)}/`);
  for (const found of left) console.warn(`[file-cleanup] stopped controller process ${String(found.pid)} left running on ${bed.dir}: ${found.cmdline.slice(0, 160)}`);
}, 90_000);
