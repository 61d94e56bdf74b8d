// Shared by the scale trait's bed tests: the workload and scale controllers as processes with their shipped RBAC, a
// client for ZookeeperScale traits, and what the ensemble itself says (committed config, srvr/mntr of every pod).
import { CustomObjectsApi, KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { parseResource, ZOOKEEPER_SCALE, zookeeperScaleSchema, type ZookeeperScale, type ZookeeperScaleInput } from '@zk-oam/apis';
import { assessEnsemble, observeEnsemble, type EnsembleAssessment } from '@zk-oam/zookeeper';
import { afterAll, beforeAll, expect } from 'vitest';
import type { BedInfo } from '../src/bed/index.js';
import { kubectl, startControllerProcess, useWorkloadController, waitControllerReady, waitFor, type ControllerProcess, type WorkloadControllerSuite } from '../src/controllers/index.js';

export interface ScaleSuite extends WorkloadControllerSuite {
  traits: ScaleClient;
  scaleController(): ControllerProcess;
}

/** Both controllers for one test file, with short periods so steps follow each other quickly. */
export function useScaleController(bed: BedInfo, options: { namespacePrefix: string }): ScaleSuite {
  const workloadSuite = useWorkloadController(bed, { namespacePrefix: options.namespacePrefix, env: { OBSERVE_PERIOD_MS: '2000' } });
  const traits = new ScaleClient(bed);
  let running: ControllerProcess | undefined;
  beforeAll(async () => {
    running = await startControllerProcess({ bed, name: 'scale', env: { STEP_PERIOD_MS: '1000', IDLE_PERIOD_MS: '5000', LOCK_DURATION_SECONDS: '30' } });
    await waitControllerReady(running);
  });
  afterAll(async () => {
    expect(await running?.stop()).toBe(0);
  });
  return {
    ...workloadSuite,
    traits,
    scaleController: () => {
      if (running === undefined) throw new Error('the scale controller has not been started');
      return running;
    },
  };
}

export class ScaleClient {
  private readonly objects: CustomObjectsApi;

  constructor(readonly bed: BedInfo) {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(bed.kubeconfig);
    this.objects = kubeConfig.makeApiClient(CustomObjectsApi);
  }

  private target(namespace: string): { group: string; version: string; namespace: string; plural: string } {
    return { group: ZOOKEEPER_SCALE.group, version: ZOOKEEPER_SCALE.version, namespace, plural: ZOOKEEPER_SCALE.plural };
  }

  async create(namespace: string, name: string, spec: ZookeeperScaleInput['spec']): Promise<void> {
    const body = { apiVersion: ZOOKEEPER_SCALE.apiVersion, kind: ZOOKEEPER_SCALE.kind, metadata: { name, namespace }, spec };
    await this.objects.createNamespacedCustomObject({ ...this.target(namespace), body });
  }

  async get(namespace: string, name: string): Promise<ZookeeperScale> {
    const object: unknown = await this.objects.getNamespacedCustomObject({ ...this.target(namespace), name });
    return parseResource(zookeeperScaleSchema, object, `ZookeeperScale ${namespace}/${name}`);
  }

  /** Through the scale subresource, as a person would. */
  async scale(namespace: string, name: string, replicas: number): Promise<void> {
    await kubectl(this.bed, ['scale', `zks/${name}`, '-n', namespace, `--replicas=${String(replicas)}`]);
  }
}

export function traitCondition(trait: ZookeeperScale, type: string): { status: string; reason: string; message: string } | undefined {
  return trait.status?.conditions?.find((condition) => condition.type === type);
}

/** What ZooKeeper itself says about the workload's pods. */
export interface EnsembleTruth {
  pods: string[];
  /** myids of the pods, sorted. */
  podIds: number[];
  /** Participants of the committed config, sorted; undefined when unreadable. */
  committed: number[] | undefined;
  assessment: EnsembleAssessment | undefined;
}

export async function ensembleTruth(listPods: () => Promise<V1Pod[]>): Promise<EnsembleTruth> {
  const pods = (await listPods()).filter((pod) => pod.metadata?.deletionTimestamp === undefined);
  const members = pods.map((pod) => ({ name: pod.metadata?.name ?? '', ip: pod.status?.podIP }));
  const observed = await observeEnsemble(members, { clientPort: 2181, timeoutMs: 3_000 });
  const config = observed.committed.ok ? observed.committed.config : undefined;
  return {
    pods: members.map((member) => member.name).sort(),
    podIds: observed.members.map((member) => member.myid).sort((a, b) => a - b),
    committed: config?.servers.filter((server) => server.role === 'participant').map((server) => server.id).sort((a, b) => a - b),
    assessment: config === undefined ? undefined : assessEnsemble(config, observed.members.map((member) => member.observation)),
  };
}

/** The committed config is exactly the pods 1..n, every voter serves and is synced, one leader. */
export function settledAt(truth: EnsembleTruth, size: number): boolean {
  const ids = Array.from({ length: size }, (_, index) => index + 1);
  return (
    JSON.stringify(truth.podIds) === JSON.stringify(ids) &&
    JSON.stringify(truth.committed) === JSON.stringify(ids) &&
    truth.assessment?.health.ok === true &&
    truth.assessment.members.every((member) => member.synced)
  );
}

export { waitFor };
