// What the rolling controller's bed tests share: the controller as a local process for the whole file, and one bound
// workload's waits and expectations (healthy, the trait Completed, each pod once, followers before the leader).
import { AppsV1Api } from '@kubernetes/client-node';
import type { ZookeeperRolling, ZookeeperWorkload } from '@zk-oam/apis';
import { afterAll, beforeAll, expect } from 'vitest';
import type { BedInfo } from '../src/bed/index.js';
import { isReady, startControllerProcess, stopCleanly, waitControllerReady, waitFor, withContainerLogs, type ControllerProcess, type PodHistory, type WorkloadClient } from '../src/controllers/index.js';
import type { ProbeReport, RollingClient } from './rolling-fixtures.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const ENSEMBLE_TIMEOUT_MS = 420_000;
export const ROLL_TIMEOUT_MS = 360_000;

/**
 * Starts the rolling controller before the file's tests and stops it after them (exit 0); returns the process. Its
 * disruption lock lasts `lockDurationSeconds` (20 unless given): once a killed controller's lock expires, another trait
 * may take the workload over.
 */
export function useRollingController(bed: BedInfo, options: { lockDurationSeconds?: number } = {}): () => ControllerProcess {
  let rolling: ControllerProcess | undefined;
  beforeAll(async () => {
    const lockDurationSeconds = String(options.lockDurationSeconds ?? 20);
    rolling = await startControllerProcess({ bed, name: 'rolling', env: { STEP_PERIOD_MS: '1000', LOCK_DURATION_SECONDS: lockDurationSeconds } });
    await waitControllerReady(rolling);
  });
  afterAll(async () => {
    await stopCleanly(rolling);
  });
  return () => {
    if (rolling === undefined) throw new Error('the rolling controller has not been started');
    return rolling;
  };
}

export class RollScenario {
  /** The pods of the bound workload, by ordinal. */
  readonly pods: readonly string[];

  constructor(
    private readonly options: { client: WorkloadClient; traits: RollingClient; namespace: string; workload: string; trait: string; members: number },
  ) {
    this.pods = Array.from({ length: options.members }, (_unused, ordinal) => `${options.workload}-${ordinal}`);
  }

  healthy(workload: ZookeeperWorkload): boolean {
    const status = workload.status;
    return isReady(workload) && status?.leader !== undefined && status.members?.length === this.options.members && status.members.every((member) => member.synced);
  }

  async waitHealthy(name = this.options.workload): Promise<ZookeeperWorkload> {
    const { client, namespace, members } = this.options;
    const wait = waitFor(`${name} to be Ready with a leader and ${members} synced members`, () => client.get(namespace, name), (workload) => this.healthy(workload), ENSEMBLE_TIMEOUT_MS);
    return withContainerLogs(wait, client.bed, namespace, this.pods);
  }

  async trait(): Promise<ZookeeperRolling> {
    return this.options.traits.get(this.options.namespace, this.options.trait);
  }

  /** The trait Completed for a roll started no earlier than `startedAfter`. */
  async waitCompleted(what: string, startedAfter: Date): Promise<ZookeeperRolling> {
    const wait = waitFor(
      what,
      () => this.trait(),
      (current) => current.status?.phase === 'Completed' && new Date(current.status.startedAt ?? 0).getTime() >= startedAfter.getTime() - 1_000,
      ROLL_TIMEOUT_MS,
    );
    return withContainerLogs(wait, this.options.client.bed, this.options.namespace, this.pods);
  }

  /** Followers highest ordinal first, then the leader of the start of the roll. */
  expectedOrder(leader: string): string[] {
    return [...this.pods.filter((pod) => pod !== leader).reverse(), leader];
  }

  onePerPod(): Record<string, number> {
    return Object.fromEntries(this.pods.map((pod) => [pod, 1]));
  }

  /**
   * `rolls` rolls one after another, each restarting every member once with at most one down, the leader once a roll
   * (one leader change each, no other), and no acknowledged write lost: what a multi-step TLS change promises.
   */
  expectRollsInARow(history: PodHistory, report: ProbeReport, rolls: number): void {
    const { members } = this.options;
    expect(history.counts()).toEqual(Object.fromEntries(this.pods.map((pod) => [pod, rolls])));
    const order = history.order();
    for (let roll = 0; roll < rolls; roll += 1) expect([...order.slice(roll * members, (roll + 1) * members)].sort()).toEqual([...this.pods].sort());
    expect(history.mostDown).toBe(1);
    expect(report.leaders.leaderChanges).toBe(rolls);
    expect(report.writes.lost).toEqual([]);
  }
}

/** The apps/v1 API of the bed, to read a StatefulSet fresh (as the workload controller's own criteria do). */
export function appsApi(bed: BedInfo): AppsV1Api {
  const kubeConfig = new PooledKubeConfig();
  kubeConfig.loadFromFile(bed.kubeconfig);
  return kubeConfig.makeApiClient(AppsV1Api);
}
