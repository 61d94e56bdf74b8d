// `npm run bench:handover`: what restarting a ZooKeeper leader costs, on real local 3.8 ensembles of 3 and 5 members
// (no Kubernetes, no controller), done two ways while a client writes throughout:
//   election: the leader stops and starts again; the others elect a new leader meanwhile;
//   handover: the leader is reconfigured out, so it designates its successor; it restarts as a non-voting joiner,
//             syncs, and is reconfigured back in as a participant.
// For each it prints the median and spread of the no-leader time (srvr polled every 50 ms), leader elections (new
// epochs), leader changes, writes refused (failed or unanswered) and lost, the longest write gap of two writers (one
// whose session may rest on any member, one on the members that stay) and the whole operation's time, and the ratio
// of handover to election. This is the protocol's cost under the rolling trait's two choices, before any pod.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assessEnsemble, observeMembers, ZooKeeperAdmin, type CommittedConfig, type EnsembleAssessment } from '@zk-oam/zookeeper';
import { pino } from 'pino';
import { ContinuousWriter, LeaderTracker } from '../src/ensemble-probe/index.js';
import { comparisonTable, type Figure, type Sample } from './figures.js';
import { waitForValue } from '../src/wait-for.js';
import { startLocalEnsemble, type LocalEnsemble } from '../src/zookeeper-local/index.js';

const REPS = Number(process.env['ZKOAM_BENCH_REPS'] ?? 5);
const SIZES = (process.env['ZKOAM_BENCH_SIZES'] ?? '3,5').split(',').map(Number);
const SUPER_PASSWORD = 'zk-oam-bench-super';
const IP_PREFIX = '127.0.7';
const HEALTHY_TIMEOUT_MS = 120_000;

const log = pino({ name: 'bench-handover', level: process.env['LOG_LEVEL'] ?? 'warn' }, pino.destination(2));

type Method = 'election' | 'handover';

function say(line: string): void {
  process.stderr.write(`[bench:handover] ${line}\n`);
}

async function withAdmin<T>(ensemble: LocalEnsemble, use: (admin: ZooKeeperAdmin) => Promise<T>): Promise<T> {
  const admin = await ZooKeeperAdmin.connect({ connectString: ensemble.connectString(), superPassword: SUPER_PASSWORD, log });
  try {
    return await use(admin);
  } finally {
    admin.close();
  }
}

async function committed(ensemble: LocalEnsemble): Promise<CommittedConfig> {
  return withAdmin(ensemble, async (admin) => {
    await admin.sync();
    return admin.getConfig();
  });
}

async function assess(ensemble: LocalEnsemble, config: CommittedConfig): Promise<EnsembleAssessment> {
  const running = ensemble.members().filter((member) => member.running());
  return assessEnsemble(config, await observeMembers(running.map((member) => ({ id: member.id, host: member.ip, clientPort: member.ports.client })), { mntr: true }));
}

/** Every member running, a leader, and every member of `config` (voter or not) synced with it. */
async function waitHealthy(ensemble: LocalEnsemble, what: string): Promise<{ config: CommittedConfig; leader: number }> {
  return waitForValue(
    what,
    async () => {
      const config = await committed(ensemble);
      const assessment = await assess(ensemble, config);
      const everyoneSynced = assessment.members.every((member) => member.synced);
      return assessment.health.ok && everyoneSynced && assessment.leader !== undefined ? { config, leader: assessment.leader } : undefined;
    },
    HEALTHY_TIMEOUT_MS,
    250,
  );
}

async function restartByElection(ensemble: LocalEnsemble, leader: number, phases: Phases): Promise<void> {
  phases['stop'] = performance.now();
  await ensemble.stop(leader);
  phases['start'] = performance.now();
  await ensemble.start(leader);
}

/** performance.now() at the start of each phase of a restart, to place the longest write gap in one. */
type Phases = Record<string, number>;

async function restartByHandover(ensemble: LocalEnsemble, leader: number, before: CommittedConfig, phases: Phases): Promise<void> {
  phases['reconfig out'] = performance.now();
  const without = before.servers.filter((server) => server.id !== leader);
  // The reconfig's answer may be lost as the leader steps down; reconfigTo settles it by reading the config back.
  const removed = await withAdmin(ensemble, (admin) => admin.reconfigTo(without));
  await waitForValue(
    'leadership to move off the departing leader',
    async () => {
      const assessment = await assess(ensemble, removed);
      return assessment.leader !== undefined && assessment.leader !== leader ? assessment.leader : undefined;
    },
    HEALTHY_TIMEOUT_MS,
    50,
  );
  phases['restart as joiner'] = performance.now();
  await ensemble.restartAsJoiner(leader, removed.servers);
  await waitForValue(
    'the former leader to sync as a non-voter',
    async () => ((await assess(ensemble, removed)).members.find((member) => member.id === leader)?.synced === true ? true : undefined),
    HEALTHY_TIMEOUT_MS,
    100,
  );
  phases['reconfig in'] = performance.now();
  const back = await withAdmin(ensemble, (admin) => admin.reconfigTo([...removed.servers, ensemble.serverEntry(leader)]));
  if (!back.servers.some((server) => server.id === leader && server.role === 'participant')) {
    throw new Error(`member ${String(leader)} is not a participant after the reconfig: ${JSON.stringify(back.servers)}`);
  }
}

/** One restart's figures, and the phase in which its longest write gap began. */
async function measure(ensemble: LocalEnsemble, method: Method, run: number): Promise<{ sample: Sample; gapPhase: string }> {
  const { config, leader } = await waitHealthy(ensemble, 'a healthy ensemble before the restart');
  const ips = ensemble.members().map((member) => member.ip);
  const writer = await ContinuousWriter.start({ connectString: () => ensemble.connectString(), root: `/bench-handover-${method}-${String(run)}` });
  // Its session never rests on the restarted member, so its gap is the ensemble's own, without a client's reconnect.
  const staying = ensemble.members().filter((member) => member.id !== leader).map((member) => member.id);
  const stayingWriter = await ContinuousWriter.start({ connectString: () => ensemble.connectString(staying), root: `/bench-handover-${method}-${String(run)}-staying` });
  const tracker = new LeaderTracker({ members: () => ips, clientPort: ensemble.member(leader).ports.client, pollMs: 50 });
  await tracker.firstLeader();
  const started = performance.now();
  const phases: Phases = {};
  if (method === 'election') await restartByElection(ensemble, leader, phases);
  else await restartByHandover(ensemble, leader, config, phases);
  await waitHealthy(ensemble, 'the full ensemble back after the restart');
  const operationS = (performance.now() - started) / 1000;
  const leaders = await tracker.stop();
  const writes = await writer.stop();
  const stayingWrites = await stayingWriter.stop();
  const gapStart = writes.longestGapEndedAt - writes.longestGapMs;
  // A gap that began just before the first action (the last write before it) belongs to the first phase.
  const gapPhase = Object.entries(phases).filter(([, at]) => at <= gapStart).at(-1)?.[0] ?? Object.keys(phases)[0] ?? 'unknown';
  const after = await committed(ensemble);
  const voters = after.servers.filter((server) => server.role === 'participant').map((server) => server.id);
  if (voters.length !== config.servers.length) throw new Error(`the voting membership did not come back: ${JSON.stringify(voters)}`);
  const sample = {
    noLeaderMs: leaders.noLeaderMs,
    elections: leaders.elections,
    leaderChanges: leaders.leaderChanges,
    refusedWrites: writes.unacknowledged + stayingWrites.unacknowledged,
    lostWrites: writes.lost.length + stayingWrites.lost.length,
    longestGapMs: writes.longestGapMs,
    stayingGapMs: stayingWrites.longestGapMs,
    operationS,
  };
  return { sample, gapPhase: `${gapPhase} (+${String(Math.round(gapStart - started))} ms)` };
}

const FIGURES: readonly Figure[] = [
  { key: 'noLeaderMs', label: 'no-leader time (ms)', digits: 0 },
  { key: 'elections', label: 'leader elections (new epochs)', digits: 0 },
  { key: 'leaderChanges', label: 'leader changes', digits: 0 },
  { key: 'refusedWrites', label: 'writes refused or unanswered', digits: 0 },
  { key: 'lostWrites', label: 'acknowledged writes lost', digits: 0 },
  { key: 'longestGapMs', label: 'longest write gap, client of any member (ms)', digits: 0 },
  { key: 'stayingGapMs', label: 'longest write gap, client of the staying members (ms)', digits: 0 },
  { key: 'operationS', label: 'whole restart (s)', digits: 1 },
];

function table(results: Map<string, Sample[]>): string {
  return comparisonTable({
    figures: FIGURES,
    sizes: SIZES,
    sizeHeader: 'members',
    columns: ['handover', 'election'],
    baseline: 'election',
    samples: (column, size) => results.get(`${column}/${String(size)}`) ?? [],
  }).join('\n');
}

async function main(): Promise<void> {
  const results = new Map<string, Sample[]>();
  for (const size of SIZES) {
    const dir = await mkdtemp(join(tmpdir(), 'zk-oam-bench-handover-'));
    say(`starting a local ${String(size)}-member ZooKeeper ensemble in ${dir}`);
    const ensemble = await startLocalEnsemble({ size, dir, superPassword: SUPER_PASSWORD, ipPrefix: IP_PREFIX, log });
    try {
      for (let rep = 1; rep <= REPS; rep += 1) {
        // Alternating keeps both methods exposed to the same drift of the machine's load.
        for (const method of ['election', 'handover'] as const) {
          const { sample, gapPhase } = await measure(ensemble, method, rep);
          results.set(`${method}/${String(size)}`, [...(results.get(`${method}/${String(size)}`) ?? []), sample]);
          say(`${String(size)} members, ${method}, repetition ${String(rep)}: ${JSON.stringify(sample)}; longest write gap began at: ${gapPhase}`);
        }
      }
    } finally {
      await ensemble.stopAll();
      await rm(dir, { recursive: true, force: true });
    }
  }
  process.stdout.write(`\nLeader restart on a local ZooKeeper ensemble, ${String(REPS)} repetitions each, median (min-max); a client writes throughout.\n\n${table(results)}\n`);
}

await main();
