// ZooKeeper through KubeVela, with KubeVela's own core controller (vela-core, built from its pinned Go module) and our
// workload, scale and rolling controllers: the sample Application (a `zookeeper` component, the `zookeeper-scale` and
// `zookeeper-rolling` traits) becomes a Ready 3-member ensemble (real ZooKeeper) and a healthy Application; a component
// parameter that changes the pod template rolls it, the leader last (at 3 members, before the scale: three JVM restarts,
// not five); raising the trait's replicas scales it 3 → 5 one member at a time, no acknowledged write lost; a
// `zookeeper-znode` component added beside the ensemble (our znode controller too) is healthy with every other part, and
// a client writes through its discovery ConfigMap's connect string; a zookeeper trait on a component of another type is
// refused with KubeVela's message; deleting the Application removes everything.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { DISCOVERY_CONFIG_KEYS, ZOOKEEPER_ROLLING, ZOOKEEPER_SCALE, ZOOKEEPER_WORKLOAD, type KindInfo } from '@zk-oam/apis';
import { isApiError, KubeClient, PooledKubeConfig } from '@zk-oam/runtime';
import { parse } from 'yaml';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  installCrds,
  isReady,
  kubectl,
  memberPodSource,
  PodHistory,
  repoRoot,
  startControllerProcess,
  stopCleanly,
  waitControllerReady,
  waitFor,
  WorkloadClient,
  type ControllerProcess,
} from '../src/controllers/index.js';
import type { LoggedProcess } from '../src/controllers/logged-process.js';
import { installKubeVela, startVelaCore, SYSTEM_DEFINITION_NAMESPACE, uninstallKubeVela } from '../src/kubevela/vela-core.js';
import { figures, probeEnsemble } from './rolling-fixtures.js';
import { workerBed } from '../src/worker-bed.js';
import { readDiscovery, tenantZkCli, ZnodeClient, znodeCondition } from './znode-support.js';

const bed = workerBed();
const namespace = `vela-${Date.now().toString(36)}`;
const kubeConfig = new PooledKubeConfig();
kubeConfig.loadFromFile(bed.kubeconfig);
const api = new KubeClient(kubeConfig);
const apps = kubeConfig.makeApiClient(AppsV1Api);
const core = kubeConfig.makeApiClient(CoreV1Api);
const workloads = new WorkloadClient(bed);
const ENSEMBLE_TIMEOUT_MS = 600_000;
const running: ControllerProcess[] = [];
let velaCore: LoggedProcess | undefined;

const APPLICATION: Pick<KindInfo, 'group' | 'version' | 'plural'> = { group: 'core.oam.dev', version: 'v1beta1', plural: 'applications' };
const applicationSchema = z.looseObject({
  metadata: z.looseObject({ generation: z.int().optional() }),
  status: z
    .looseObject({
      status: z.string().optional(),
      observedGeneration: z.int().optional(),
      services: z
        .array(
          z.looseObject({
            name: z.string(),
            healthy: z.boolean().optional(),
            message: z.string().optional(),
            traits: z.array(z.looseObject({ type: z.string(), healthy: z.boolean().optional(), message: z.string().optional() })).optional(),
          }),
        )
        .optional(),
    })
    .optional(),
});
type Application = z.infer<typeof applicationSchema>;
const traitSchema = z.looseObject({
  metadata: z.looseObject({ labels: z.record(z.string(), z.string()).optional() }),
  spec: z.looseObject({ workloadRef: z.looseObject({ name: z.string() }).optional() }),
  status: z.looseObject({ phase: z.string().optional(), replicas: z.int().optional() }).optional(),
});

function path(kind: Pick<KindInfo, 'group' | 'version' | 'plural'>, name: string): string {
  return `/apis/${kind.group}/${kind.version}/namespaces/${namespace}/${kind.plural}/${name}`;
}

async function read<S extends z.ZodType>(schema: S, kind: Pick<KindInfo, 'group' | 'version' | 'plural'>, name: string): Promise<z.output<S> | undefined> {
  try {
    return schema.parse(await api.request('GET', path(kind, name)));
  } catch (error) {
    if (isApiError(error, 404)) return undefined;
    throw error;
  }
}

const application = (name = 'example'): Promise<Application | undefined> => read(applicationSchema, APPLICATION, name);
const trait = (kind: KindInfo, name: string): Promise<z.infer<typeof traitSchema> | undefined> => read(traitSchema, kind, name);

/** KubeVela has rendered the current generation and every component and trait reports healthy. */
function healthy(app: Application | undefined): boolean {
  const status = app?.status;
  return (
    status?.status === 'running' &&
    status.observedGeneration === app?.metadata.generation &&
    (status.services ?? []).length === 1 &&
    (status.services ?? []).every((service) => service.healthy === true && (service.traits ?? []).length === 2 && (service.traits ?? []).every((t) => t.healthy === true))
  );
}

const sample = parse(readFileSync(join(repoRoot, 'deploy/samples/kubevela-application.yaml'), 'utf8')) as { spec: { components: { traits: { type: string }[] }[] } };
const scaleTraitIndex = sample.spec.components[0]?.traits.findIndex((t) => t.type === 'zookeeper-scale') ?? -1;

async function patchApplication(operations: unknown[]): Promise<void> {
  await kubectl(bed, ['patch', 'application', 'example', '-n', namespace, '--type=json', '-p', JSON.stringify(operations)]);
}

const settled = (size: number) => (w: Awaited<ReturnType<WorkloadClient['get']>>) => isReady(w) && w.status?.members?.length === size && w.status.members.every((m) => m.synced);

describe('ZooKeeper through a KubeVela Application, rendered by KubeVela\'s own controller', () => {
  beforeAll(async () => {
    await installCrds(bed);
    await installKubeVela(bed);
    velaCore = await startVelaCore(bed);
    for (const name of ['workload', 'scale', 'rolling', 'znode']) running.push(await startControllerProcess({ bed, name }));
    for (const controller of running) await waitControllerReady(controller);
    await workloads.createNamespace(namespace);
    await kubectl(bed, ['apply', '--server-side', '-n', namespace, '-f', join(repoRoot, 'deploy/samples/kubevela-application.yaml')]);
  });

  afterAll(async () => {
    // vela-core releases its finalizer on the Applications of the namespace, so it stops after the namespace is gone.
    await workloads.deleteNamespace(namespace);
    for (const controller of running) await stopCleanly(controller);
    await velaCore?.stop();
    await uninstallKubeVela(bed);
  });

  it('renders our CRs, which our controllers bring to a Ready 3-member ensemble, and the Application reports healthy', async () => {
    await waitFor('a Ready 3-member ensemble', () => workloads.get(namespace, 'zookeeper'), settled(3), ENSEMBLE_TIMEOUT_MS);
    const scale = await trait(ZOOKEEPER_SCALE, 'zookeeper-scale');
    const rolling = await trait(ZOOKEEPER_ROLLING, 'zookeeper-rolling');
    expect(scale?.metadata.labels).toMatchObject({ 'app.oam.dev/name': 'example', 'app.oam.dev/component': 'zookeeper' });
    expect(scale?.spec.workloadRef?.name).toBe('zookeeper');
    expect(rolling?.spec.workloadRef?.name).toBe('zookeeper');
    // KubeVela judges health by the Ready condition, which is True from the first serving quorum (2 of 3): its next
    // look at the workload, after the third member serves, brings the Running phase into the message.
    const app = await waitFor('the Application healthy, its message showing the Running phase', () => application(), (candidate) => healthy(candidate) && /^Running: /.test(candidate?.status?.services?.[0]?.message ?? ''), 180_000);
    const [service] = app?.status?.services ?? [];
    console.log(`Application status: ${JSON.stringify(app?.status?.services)}`);
    expect(service?.message).toMatch(/^Running: /);
    expect(service?.traits?.map((t) => t.type).sort()).toEqual(['zookeeper-rolling', 'zookeeper-scale']);
  });

  it('rolls the members once each, the leader last, when a component parameter changes the pod template', async () => {
    const leader = (await workloads.get(namespace, 'zookeeper')).status?.leader ?? '';
    const history = new PodHistory(memberPodSource(workloads, namespace, 'zookeeper'), 3);
    const probe = await probeEnsemble(workloads, namespace, 'zookeeper');
    const started = performance.now();
    await history.start();
    await patchApplication([{ op: 'replace', path: '/spec/components/0/properties/resources/requests/cpu', value: '150m' }]);

    await waitFor('every pod restarted', async () => history.restarts.length, (count) => count >= 3, ENSEMBLE_TIMEOUT_MS);
    await waitFor('the rolling trait Completed', () => trait(ZOOKEEPER_ROLLING, 'zookeeper-rolling'), (t) => t?.status?.phase === 'Completed', ENSEMBLE_TIMEOUT_MS);
    const rolled = await waitFor('3 synced members', () => workloads.get(namespace, 'zookeeper'), settled(3), ENSEMBLE_TIMEOUT_MS);
    await history.stop();
    const report = await probe.stop();
    console.log(figures(`KubeVela component parameter rolled (leader ${leader}, restarted ${history.order().join(', ')})`, report, (performance.now() - started) / 1000));
    expect(rolled.spec.resources?.requests).toMatchObject({ cpu: '150m' });
    expect(history.counts()).toEqual(Object.fromEntries([0, 1, 2].map((ordinal) => [`zookeeper-${String(ordinal)}`, 1])));
    expect(history.order().at(-1)).toBe(leader);
    expect(report.writes.lost).toEqual([]);
    await waitFor('the Application healthy again', () => application(), healthy, 180_000);
  });

  it('scales 3 → 5 one member at a time, no acknowledged write lost, when the Application asks the trait for 5', async () => {
    const probe = await probeEnsemble(workloads, namespace, 'zookeeper');
    const started = performance.now();
    const sizes: number[] = [];
    await patchApplication([{ op: 'replace', path: `/spec/components/0/traits/${String(scaleTraitIndex)}/properties/replicas`, value: 5 }]);
    await waitFor(
      '5 synced members',
      async () => {
        const workload = await workloads.get(namespace, 'zookeeper');
        if (sizes.at(-1) !== workload.spec.replicas) sizes.push(workload.spec.replicas);
        return workload;
      },
      settled(5),
      ENSEMBLE_TIMEOUT_MS,
      250,
    );
    await waitFor('the scale trait Idle at 5', () => trait(ZOOKEEPER_SCALE, 'zookeeper-scale'), (t) => t?.status?.phase === 'Idle' && t.status.replicas === 5, 120_000);
    const report = await probe.stop();
    console.log(figures('KubeVela Application scaled 3 → 5', report, (performance.now() - started) / 1000));
    expect(sizes).toEqual([3, 4, 5]);
    expect(report.writes.acknowledged).toBeGreaterThan(0);
    expect(report.writes.lost).toEqual([]);
    await waitFor('the Application healthy again', () => application(), healthy, 180_000);
  });

  it('declares a znode beside the ensemble and its traits: every part healthy, and a client writes through its discovery connect string', async () => {
    await patchApplication([{ op: 'add', path: '/spec/components/-', value: { name: 'kafka-zk', type: 'zookeeper-znode', properties: { zookeeper: 'zookeeper', path: '/kafka' } } }]);
    const everyPartHealthy = (app: Application | undefined): boolean => {
      const services = app?.status?.services ?? [];
      return app?.status?.status === 'running' && app.status.observedGeneration === app.metadata.generation && services.length === 2 && services.every((service) => service.healthy === true);
    };
    const app = await waitFor('the Application healthy with its znode', () => application(), everyPartHealthy, 180_000);
    console.log(`Application status with a znode: ${JSON.stringify(app?.status?.services)}`);
    expect(app?.status?.services?.find((service) => service.name === 'kafka-zk')?.message).toMatch(/^Available: \/kafka exists; /);
    const znode = await new ZnodeClient(bed).get(namespace, 'kafka-zk');
    expect(znodeCondition(znode, 'Ready')?.status).toBe('True');
    const discovery = await readDiscovery(workloads, namespace, 'kafka-zk');
    expect(discovery.config[DISCOVERY_CONFIG_KEYS.connectString]).toBe(`zookeeper-client.${namespace}.svc.cluster.local:2181/kafka`);
    expect((await tenantZkCli(bed, discovery, ['create', '/brokers', 'kafka'])).output).toContain('Created /brokers');
    expect((await tenantZkCli(bed, discovery, ['get', '/brokers'])).output).toContain('kafka');
  });

  it('refuses a zookeeper trait on a component of another type, with KubeVela\'s own message, and renders no trait', async () => {
    const configMapComponent = {
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'ComponentDefinition',
      metadata: { name: 'zk-oam-test-config', namespace: SYSTEM_DEFINITION_NAMESPACE },
      spec: {
        workload: { definition: { apiVersion: 'v1', kind: 'ConfigMap' } },
        schematic: { cue: { template: 'output: {\n\tapiVersion: "v1"\n\tkind: "ConfigMap"\n\tdata: parameter\n}\nparameter: [string]: string\n' } },
      },
    };
    const wrong = {
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'Application',
      metadata: { name: 'wrong', namespace },
      spec: { components: [{ name: 'web', type: 'zk-oam-test-config', properties: { key: 'value' }, traits: [{ type: 'zookeeper-scale', properties: { replicas: 3 } }] }] },
    };
    await kubectl(bed, ['apply', '--server-side', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [configMapComponent, wrong] }));
    const refused = await waitFor(
      'the Application refused',
      async () => JSON.stringify((await application('wrong'))?.status ?? {}),
      (status) => status.includes('zookeeper-scale applies to zookeeper components'),
      120_000,
    );
    console.log(`KubeVela's status of the refused Application: ${refused}`);
    expect(refused).toContain('validation failed for trait zookeeper-scale');
    expect(refused).toContain('not to component web, which renders v1, Kind=ConfigMap');
    expect(await trait(ZOOKEEPER_SCALE, 'web-scale')).toBeUndefined();
    await kubectl(bed, ['delete', 'application', 'wrong', '-n', namespace, '--wait']);
  });

  it('removes the workload, the traits, the StatefulSet, the pods and the volumes when the Application is deleted', async () => {
    await kubectl(bed, ['delete', 'application', 'example', '-n', namespace, '--wait=false']);
    await waitFor('the Application gone', () => application(), (app) => app === undefined, 180_000);
    await waitFor('the workload gone', () => read(z.unknown(), ZOOKEEPER_WORKLOAD, 'zookeeper'), (w) => w === undefined, 180_000);
    expect(await trait(ZOOKEEPER_SCALE, 'zookeeper-scale')).toBeUndefined();
    expect(await trait(ZOOKEEPER_ROLLING, 'zookeeper-rolling')).toBeUndefined();
    await waitFor('the StatefulSet gone', async () => (await apps.listNamespacedStatefulSet({ namespace })).items.length, (count) => count === 0, 180_000);
    await waitFor('the pods gone', async () => (await core.listNamespacedPod({ namespace })).items.length, (count) => count === 0, 180_000);
    await waitFor('the volumes released', async () => (await core.listNamespacedPersistentVolumeClaim({ namespace })).items.length, (count) => count === 0, 180_000);
  });
});
