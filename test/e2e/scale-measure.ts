// Measures a scale scenario on the bed: a continuous writer (no acknowledged write lost), a leader tracker (elections,
// time without a leader) and a step clock (time per member change, from the trait's status), printed per scenario.
import { setTimeout as sleep } from 'node:timers/promises';
import type { V1Pod } from '@kubernetes/client-node';
import { ZOOKEEPER_PORTS, type ZookeeperScale } from '@zk-oam/apis';
import { ContinuousWriter, LeaderTracker, type LeaderReport, type WriterReport } from '../src/ensemble-probe/index.js';

/** What one scenario measured: leader elections, time per step, writes. Printed as one line per scenario. */
export interface ScenarioReport {
  name: string;
  writes: WriterReport;
  leaders: LeaderReport;
  steps: { step: string; seconds: number }[];
  seconds: number;
}

/** Runs `operation` with a continuous writer, a leader tracker and a step clock on the workload's pods. */
export async function measured(
  name: string,
  watch: { listPods: () => Promise<V1Pod[]>; trait: () => Promise<ZookeeperScale> },
  operation: () => Promise<void>,
): Promise<ScenarioReport> {
  const ips = async (): Promise<string[]> =>
    (await watch.listPods()).flatMap((pod) => (pod.metadata?.deletionTimestamp === undefined && pod.status?.podIP !== undefined ? [pod.status.podIP] : []));
  const started = performance.now();
  const writer = await ContinuousWriter.start({
    connectString: async () => (await ips()).map((ip) => `${ip}:${ZOOKEEPER_PORTS.client}`).join(','),
    root: `/scale-test-${name.replaceAll(/[^a-z0-9]+/gi, '-')}`,
  });
  const tracker = new LeaderTracker({ members: ips });
  const clock = new StepClock(watch.trait);
  const failure = await operation().then(
    () => undefined,
    (error: unknown) => error,
  );
  const report: ScenarioReport = { name, steps: await clock.stop(), leaders: await tracker.stop(), writes: await writer.stop(), seconds: (performance.now() - started) / 1000 };
  printScenario(report);
  if (failure !== undefined) throw failure;
  return report;
}

function printScenario(report: ScenarioReport): void {
  const steps = report.steps.map((step) => `${step.step} ${step.seconds.toFixed(1)}s`).join(', ');
  const { leaders, writes } = report;
  console.log(
    `[scale] ${report.name}: ${report.seconds.toFixed(1)}s; leader elections ${leaders.elections} (leader changes ${leaders.leaderChanges}, ` +
      `no leader ${leaders.noLeaderMs} ms); steps: ${steps === '' ? 'none' : steps}; writes acknowledged ${writes.acknowledged}, ` +
      `lost ${writes.lost.length}, unacknowledged ${writes.unacknowledged}, longest write gap ${writes.longestGapMs.toFixed(0)} ms`,
  );
}

/** Times each member change from its status.step.startedAt to the first poll that no longer shows it. */
class StepClock {
  private readonly finished: { step: string; seconds: number }[] = [];
  private stopped = false;
  private readonly loop: Promise<void>;

  constructor(private readonly read: () => Promise<ZookeeperScale>) {
    this.loop = this.run();
  }

  async stop(): Promise<{ step: string; seconds: number }[]> {
    this.stopped = true;
    await this.loop;
    return this.finished;
  }

  private async run(): Promise<void> {
    let current: { step: string; startedAt: number } | undefined;
    for (;;) {
      const step = (await this.read().catch(() => undefined))?.status?.step;
      const seen = step === undefined ? undefined : { step: `${step.action} ${step.pod}`, startedAt: Date.parse(step.startedAt) };
      if (current !== undefined && seen?.step !== current.step) this.finished.push({ step: current.step, seconds: (Date.now() - current.startedAt) / 1000 });
      if (seen?.step !== current?.step) current = seen;
      if (this.stopped) return;
      await sleep(250);
    }
  }
}
