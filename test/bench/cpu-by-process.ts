// `npm run bench:cpu -- <command...>`: where a command's CPU goes, over the whole machine, by kind of process (the
// control plane, the pods' ZooKeeper JVMs, the controllers, the test workers, the shell of the probes...). It runs the
// command under `perf record -a` (test/src/cpu-profile/), so short-lived processes and the kernel count too, and
// prints each kind's CPU seconds and share of the machine, busiest first. For example `npm run bench:cpu -- npm test`
// found the kube-apiservers, the members and the test workers at the top of a 30-minute suite. Needs root (or
// perf_event_paranoid <= 0) and perf (Debian's linux-perf).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandLines } from '../src/cpu-profile/command-lines.js';
import { PerfRecording, SAMPLES_PER_SECOND } from '../src/cpu-profile/perf-samples.js';
import { processKind } from '../src/cpu-profile/process-kinds.js';

const [command, ...args] = process.argv.slice(2);
if (command === undefined) {
  console.error('usage: npm run bench:cpu -- <command> [args...]');
  process.exit(2);
}
const dir = await mkdtemp(join(tmpdir(), 'zkoam-cpu-'));
const names = new CommandLines();
names.start();
const recording = await PerfRecording.start(join(dir, 'perf.data'));
const started = performance.now();
const child = spawn(command, args, { stdio: 'inherit' });
const [code] = (await once(child, 'exit')) as [number | null];
const seconds = (performance.now() - started) / 1000;
await names.stop();
const samples = await recording.stop();
await rm(dir, { recursive: true, force: true });

const byKind = new Map<string, number>();
for (const thread of samples) {
  const kind = processKind(thread.pid, thread.comm, names.of(thread.pid));
  byKind.set(kind, (byKind.get(kind) ?? 0) + thread.samples);
}
const total = [...byKind.values()].reduce((sum, count) => sum + count, 0);
console.log(`\nCPU by kind of process while \`${[command, ...args].join(' ')}\` ran: ${seconds.toFixed(0)} s on ${String(cpus().length)} CPUs, ${String(SAMPLES_PER_SECOND)} samples/s per CPU (exit ${String(code)})`);
console.log('  CPU s   share  kind');
for (const [kind, count] of [...byKind].sort((a, b) => b[1] - a[1]).filter(([, count]) => count / total >= 0.001)) {
  console.log(`${(count / SAMPLES_PER_SECOND).toFixed(0).padStart(7)}  ${((100 * count) / total).toFixed(1).padStart(5)}%  ${kind}`);
}
process.exitCode = code ?? 1;
