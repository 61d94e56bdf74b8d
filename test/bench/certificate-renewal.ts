// `npm run bench:renewal`: how late the workload controller issues a member certificate that falls due by time alone,
// on the bed. ZKOAM_BENCH_REPS one-member workloads (3 by default) with quorum TLS and a one-hour certificate run at once
// under one controller whose observer period is five minutes; each has its renewBeforeMinutes moved so that the
// certificate in use falls due 75 to 135 s later, as test/e2e/workload-tls-renewal.test.ts does. It prints the median
// and spread of the time from due to the controller's Event announcing the new certificate (what the reconcile coming
// back at the renewal time costs; a timed look would come at least 105 s after due), and of the time from the change
// to due.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { derivedNames } from '@zk-oam/apis';
import { pino } from 'pino';
import { repoRoot } from '../src/bed/paths.js';
import { resolveBinaries, startBed } from '../src/bed/index.js';
import { bedWorkloadSpec, eventsAbout, installCrds, isReady, startControllerProcess, waitControllerReady, waitFor, WorkloadClient } from '../src/controllers/index.js';
import { issuedCertificate, renewalDueSoon } from '../e2e/tls-fixtures.js';
import { cell } from './figures.js';

const REPS = Number(process.env['ZKOAM_BENCH_REPS'] ?? 3);
const NAMESPACE = 'bench-renewal';
/** The observer period of the workload test: the renewal cannot be a timed look that happened to fall then. */
const IDLE_PERIOD_MS = 300_000;
const DUE_AFTER_MS = 75_000;
const QUIET_RENEW_BEFORE_MINUTES = 20;

function say(line: string): void {
  process.stderr.write(`[bench:renewal] ${line}\n`);
}

/** One workload's renewal: seconds from the change of renewBeforeMinutes to due, and from due to the Event of the new certificate. */
async function renewal(client: WorkloadClient, name: string): Promise<{ noticeS: number; lateS: number }> {
  const target = { client, namespace: NAMESPACE, workload: name };
  const first = await issuedCertificate(target);
  const { renewBeforeMinutes, dueAt } = renewalDueSoon(first, DUE_AFTER_MS);
  const changedAt = Date.now();
  await client.patch(NAMESPACE, name, { spec: { tls: { certificates: { renewBeforeMinutes } } } });
  const secret = derivedNames(name).tlsSecret;
  const announced = await waitFor(
    `${name}: the Event of the renewed certificate`,
    async () => (await eventsAbout(client, NAMESPACE, name)).find((event) => event.note?.startsWith(`Updated Secret ${secret} `) === true && event.note.includes('renewal due since')),
    (event) => event !== undefined,
    dueAt.getTime() - Date.now() + IDLE_PERIOD_MS,
    250,
  );
  await client.patch(NAMESPACE, name, { spec: { tls: { certificates: { renewBeforeMinutes: QUIET_RENEW_BEFORE_MINUTES } } } });
  const issuedAt = new Date(announced?.eventTime ?? Number.NaN).getTime();
  return { noticeS: (dueAt.getTime() - changedAt) / 1000, lateS: (issuedAt - dueAt.getTime()) / 1000 };
}

async function main(): Promise<void> {
  say('building the controllers (npm run build)');
  execFileSync(join(repoRoot(), 'node_modules/.bin/turbo'), ['run', 'build', '--output-logs=errors-only'], { cwd: repoRoot(), stdio: 'inherit' });
  const bed = await startBed({ log: pino({ level: 'warn' }), binaries: await resolveBinaries(process.env) });
  try {
    await installCrds(bed.info);
    const controller = await startControllerProcess({ bed: bed.info, name: 'workload', logLevel: 'warn', env: { IDLE_PERIOD_MS: String(IDLE_PERIOD_MS) } });
    try {
      await waitControllerReady(controller);
      const client = new WorkloadClient(bed.info);
      await client.createNamespace(NAMESPACE);
      const names = Array.from({ length: REPS }, (_unused, index) => `renewal-${String(index + 1)}`);
      const spec = bedWorkloadSpec({ replicas: 1, tls: { quorum: true, certificates: { validityHours: 1, renewBeforeMinutes: QUIET_RENEW_BEFORE_MINUTES } } });
      for (const name of names) await client.create(NAMESPACE, name, spec);
      for (const name of names) await waitFor(`${name} Ready`, () => client.get(NAMESPACE, name), isReady, 420_000, 1_000);
      say(`${String(REPS)} workloads Ready; moving each renewal to 75 to 135 s from now`);
      const samples = await Promise.all(names.map((name) => renewal(client, name)));
      for (const [index, sample] of samples.entries()) say(`${names[index] ?? ''}: ${JSON.stringify(sample)}`);
      console.log(
        [
          '',
          `Renewal of the member certificate by time, ${String(REPS)} workloads at once, observer period ${String(IDLE_PERIOD_MS / 1000)} s; median (min-max).`,
          '',
          '| figure | seconds |',
          '| --- | --- |',
          `| renewBeforeMinutes changed, before due | ${cell(samples.map((sample) => sample.noticeS), 1)} |`,
          `| issued (its Event) after due | ${cell(samples.map((sample) => sample.lateS), 1)} |`,
        ].join('\n'),
      );
    } finally {
      await controller.stop();
    }
  } finally {
    await bed.stop();
  }
}

await main();
