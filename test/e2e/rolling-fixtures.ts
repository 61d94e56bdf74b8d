// Helpers for the rolling controller's bed tests: ZookeeperRolling objects, the member pods (for a PodHistory), an
// ensemble probe during a roll, ZooKeeper process signals for member failures, and the NATS events of one workload.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CustomObjectsApi, PatchStrategy, setHeaderOptions, type V1Pod } from '@kubernetes/client-node';
import { connect } from '@nats-io/transport-node';
import {
  eventFilterSubject,
  memberSelectorOf,
  parseEvent,
  parseResource,
  ZOOKEEPER_PORTS,
  ZOOKEEPER_ROLLING,
  ZOOKEEPER_WORKLOAD,
  type ZkEvent,
  type ZookeeperRolling,
  type ZookeeperRollingInput,
  zookeeperRollingSchema,
} from '@zk-oam/apis';
import type { BedInfo } from '../src/bed/index.js';
import type { WorkloadClient } from '../src/controllers/index.js';
import { ContinuousWriter, LeaderTracker, type LeaderReport, type WriterReport } from '../src/ensemble-probe/index.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

export class RollingClient {
  private readonly objects: CustomObjectsApi;

  constructor(bed: BedInfo) {
    const kubeConfig = new PooledKubeConfig();
    kubeConfig.loadFromFile(bed.kubeconfig);
    this.objects = kubeConfig.makeApiClient(CustomObjectsApi);
  }

  private target(namespace: string): { group: string; version: string; namespace: string; plural: string } {
    return { group: ZOOKEEPER_ROLLING.group, version: ZOOKEEPER_ROLLING.version, namespace, plural: ZOOKEEPER_ROLLING.plural };
  }

  async create(namespace: string, name: string, workload: string, spec: Partial<ZookeeperRollingInput['spec']> = {}): Promise<void> {
    const body = {
      apiVersion: ZOOKEEPER_ROLLING.apiVersion,
      kind: ZOOKEEPER_ROLLING.kind,
      metadata: { name, namespace },
      spec: { workloadRef: { apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind, name: workload }, ...spec },
    };
    await this.objects.createNamespacedCustomObject({ ...this.target(namespace), body });
  }

  async get(namespace: string, name: string): Promise<ZookeeperRolling> {
    const object: unknown = await this.objects.getNamespacedCustomObject({ ...this.target(namespace), name });
    return parseResource(zookeeperRollingSchema, object, `ZookeeperRolling ${namespace}/${name}`);
  }

  async patch(namespace: string, name: string, body: object): Promise<void> {
    await this.objects.patchNamespacedCustomObject({ ...this.target(namespace), name, body }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
  }

  async delete(namespace: string, name: string): Promise<void> {
    await this.objects.deleteNamespacedCustomObject({ ...this.target(namespace), name });
  }
}

export function rollingCondition(trait: ZookeeperRolling, type: string): { status: string; reason: string; message: string } | undefined {
  return trait.status?.conditions?.find((entry) => entry.type === type);
}

/** A LIST of the workload's member pods, fresh from the apiserver on every call. */
export function memberPods(client: WorkloadClient, namespace: string, workload: string): () => Promise<V1Pod[]> {
  return async () => (await client.core.listNamespacedPod({ namespace, labelSelector: memberSelectorOf(workload) })).items;
}

/** The pid of a member's ZooKeeper process as the bed's node agent records it. */
export async function zookeeperPid(bed: BedInfo, namespace: string, pod: string): Promise<number> {
  return Number((await readFile(join(bed.dir, 'agent', 'pids', `${namespace}_${pod}`), 'utf8')).trim());
}

/** The members' pod IPs as they are now (pods come and go during a roll). */
async function memberIps(client: WorkloadClient, namespace: string, workload: string): Promise<string[]> {
  const pods = await memberPods(client, namespace, workload)();
  return pods.flatMap((pod) => (pod.status?.podIP === undefined || pod.metadata?.deletionTimestamp !== undefined ? [] : [pod.status.podIP]));
}

export interface ProbeReport {
  readonly leaders: LeaderReport;
  readonly writes: WriterReport;
}

/** A continuous writer and a leader tracker on one workload's members, from now until stop(). */
export async function probeEnsemble(client: WorkloadClient, namespace: string, workload: string): Promise<{ stop(): Promise<ProbeReport> }> {
  const ips = (): Promise<string[]> => memberIps(client, namespace, workload);
  const writer = await ContinuousWriter.start({
    connectString: async () => (await ips()).map((ip) => `${ip}:${ZOOKEEPER_PORTS.client}`).join(','),
    root: `/rolling-probe-${workload}-${Date.now().toString(36)}`,
  });
  const tracker = new LeaderTracker({ members: ips });
  return {
    stop: async () => {
      const leaders = await tracker.stop();
      return { leaders, writes: await writer.stop() };
    },
  };
}

/** One line of figures for the test output: elections, time without a leader, lost writes. */
export function figures(label: string, report: ProbeReport, seconds: number): string {
  const { leaders, writes } = report;
  return (
    `${label}: leader elections ${String(leaders.elections)}, no-leader time ${String(Math.round(leaders.noLeaderMs))} ms, ` +
    `lost writes ${String(writes.lost.length)} of ${String(writes.acknowledged)} acknowledged, longest write gap ` +
    `${String(Math.round(writes.longestGapMs))} ms, roll ${seconds.toFixed(0)} s`
  );
}

/**
 * Every event published about one workload from now until stop(), as a plain NATS subscriber on the bed's server
 * reads it; a payload that does not parse as the contract's event fails stop().
 */
export async function recordEvents(bed: BedInfo, namespace: string, workload: string): Promise<{ stop(): Promise<ZkEvent[]> }> {
  const connection = await connect({ servers: bed.nats.url, user: bed.nats.user, pass: bed.nats.password });
  const events: ZkEvent[] = [];
  const refused: string[] = [];
  const subscription = connection.subscribe(eventFilterSubject({ namespace, workload }), {
    callback: (error, message) => {
      if (error !== null) return;
      const parsed = parseEvent(message.json());
      if (parsed.ok) events.push(parsed.event);
      else refused.push(`${message.subject}: ${parsed.message}`);
    },
  });
  await connection.flush();
  return {
    stop: async () => {
      await connection.flush();
      subscription.unsubscribe();
      await connection.close();
      if (refused.length > 0) throw new Error(`events outside the contract: ${refused.join('; ')}`);
      return events;
    },
  };
}
