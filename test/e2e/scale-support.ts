// Shared by the scale trait's bed tests: the workload and scale controllers as processes with their shipped RBAC, a
// client for ZookeeperScale traits, and what the ensemble itself says (committed config, srvr/mntr of every pod).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CustomObjectsApi, type V1Pod } from '@kubernetes/client-node';
import { myidOfPod, parseResource, ZOOKEEPER_PORTS, ZOOKEEPER_SCALE, type ZookeeperScale, type ZookeeperScaleInput, zookeeperScaleSchema } from '@zk-oam/apis';
import { KubeClient, PooledKubeConfig } from '@zk-oam/runtime';
import { assessEnsemble, observeEnsemble, type EnsembleAssessment } from '@zk-oam/zookeeper';
import { afterAll, beforeAll, expect } from 'vitest';
import { z } from 'zod';
import type { BedInfo } from '../src/bed/index.js';
import {
  applyManifests,
  installControllerRbac,
  kubectl,
  readManifests,
  repoRoot,
  startControllerProcess,
  stopCleanly,
  useWorkloadController,
  waitControllerReady,
  waitFor,
  type ControllerProcess,
  type WorkloadControllerSuite,
} from '../src/controllers/index.js';

export interface ScaleSuite extends WorkloadControllerSuite {
  traits: ScaleClient;
  scaleController(): ControllerProcess;
}

/** Both controllers for one test file, with short periods so steps follow each other quickly. */
export function useScaleController(bed: BedInfo, options: { namespacePrefix: string }): ScaleSuite {
  const workloadSuite = useWorkloadController(bed, { namespacePrefix: options.namespacePrefix, env: { IDLE_PERIOD_MS: '2000' } });
  const traits = new ScaleClient(bed);
  let running: ControllerProcess | undefined;
  beforeAll(async () => {
    running = await startControllerProcess({ bed, name: 'scale', env: { STEP_PERIOD_MS: '1000', IDLE_PERIOD_MS: '5000', LOCK_DURATION_SECONDS: '30' } });
    await waitControllerReady(running);
  });
  afterAll(async () => {
    await stopCleanly(running);
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
    const kubeConfig = new PooledKubeConfig();
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

/** The trait Idle and Ready at `size`, and ZooKeeper agreeing: committed config = pods 1..size, all synced. */
export async function waitScaled(
  traits: ScaleClient,
  subject: { namespace: string; trait: string; listPods: () => Promise<V1Pod[]> },
  size: number,
): Promise<void> {
  const scaled = await waitFor(
    `the trait Idle at ${size}`,
    () => traits.get(subject.namespace, subject.trait),
    (current) => current.status?.phase === 'Idle' && current.status.replicas === size && traitCondition(current, 'Ready')?.status === 'True',
    300_000,
  );
  expect(scaled.status?.targetReplicas).toBe(size);
  const truth = await waitFor(`ZooKeeper settled at ${size}`, () => ensembleTruth(subject.listPods), (seen) => settledAt(seen, size), 60_000, 1_000);
  expect(truth.committed).toEqual(truth.podIds);
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

function statefulSetOf(pod: V1Pod): string {
  return pod.metadata?.ownerReferences?.find((owner) => owner.kind === 'StatefulSet')?.name ?? '';
}

export async function ensembleTruth(listPods: () => Promise<V1Pod[]>): Promise<EnsembleTruth> {
  const pods = (await listPods()).filter((pod) => pod.metadata?.deletionTimestamp === undefined);
  const members = pods.flatMap((pod) => {
    const name = pod.metadata?.name ?? '';
    const myid = myidOfPod(name, statefulSetOf(pod));
    return myid === undefined ? [] : [{ pod: name, myid, ip: pod.status?.podIP }];
  });
  const observed = await observeEnsemble(members, { clientPort: ZOOKEEPER_PORTS.client, timeoutMs: 3_000 });
  const config = observed.committed.ok ? observed.committed.config : undefined;
  return {
    pods: members.map((member) => member.pod).sort(),
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

/** The process id of a member pod's ZooKeeper (the agent's pid file; start.sh execs the JVM). */
export async function memberPid(bed: BedInfo, namespace: string, pod: string): Promise<number> {
  return Number((await readFile(join(bed.dir, 'agent', 'pids', `${namespace}_${pod}`), 'utf8')).trim());
}

/**
 * Takes `patch` on ZookeeperWorkloads away from the scale controller (or gives it back): every step that changes the
 * workload's spec.replicas then fails, so the controller stops right before it, deterministically.
 */
export async function scaleControllerMayWriteWorkloads(bed: BedInfo, allowed: boolean): Promise<void> {
  if (allowed) {
    await installControllerRbac(bed, 'scale');
    return;
  }
  const roles = await readManifests(join(repoRoot, 'deploy', 'scale'), ['Deployment']);
  const restricted = roles.map((object) => {
    if (object['kind'] !== 'ClusterRole') return object;
    const rules = z.array(z.looseObject({ resources: z.array(z.string()), verbs: z.array(z.string()) })).parse(object['rules']);
    return { ...object, rules: rules.map((rule) => (rule.resources.includes('zookeeperworkloads') ? { ...rule, verbs: rule.verbs.filter((verb) => verb !== 'patch') } : rule)) };
  });
  await applyManifests(bed, restricted);
}

const eventListSchema = z.object({
  items: z.array(
    z.looseObject({ reason: z.string().optional(), note: z.string().optional(), regarding: z.looseObject({ kind: z.string().optional(), name: z.string().optional() }).optional() }),
  ),
});

/** events.k8s.io Events recorded about the ZookeeperScale `name`. */
export async function traitEvents(bed: BedInfo, namespace: string, name: string): Promise<{ reason?: string; note?: string }[]> {
  const kubeConfig = new PooledKubeConfig();
  kubeConfig.loadFromFile(bed.kubeconfig);
  const list = eventListSchema.parse(await new KubeClient(kubeConfig).request('GET', `/apis/events.k8s.io/v1/namespaces/${namespace}/events`));
  return list.items.filter((event) => event.regarding?.kind === ZOOKEEPER_SCALE.kind && event.regarding.name === name);
}
