// The whole system as a user meets it: the five controllers, each with only its own RBAC, and the sample
// ApplicationConfiguration. With only the workload and appconfig controllers running, it becomes a Ready 3-member
// ensemble (real ZooKeeper) whose trait CRs wait untouched; the trait controllers, started later, bind them; a znode
// component added to the same ApplicationConfiguration (with the znode controller) is Ready beside the Ready ensemble
// and both Ready traits, and a client writes through its published connect string; a Component spec change (revision
// v2) is rolled by the rolling trait, the leader last (at 3 members, before the scale, so the roll restarts three JVMs,
// not five); raising the scale trait's replicas in the ApplicationConfiguration to 5 scales it; removing the rolling
// trait from it deletes the trait and returns the StatefulSet to RollingUpdate; deleting it removes everything.
import { join } from 'node:path';
import { AppsV1Api } from '@kubernetes/client-node';
import { DISCOVERY_CONFIG_KEYS, ROLLING_BINDING_ANNOTATION, SCALE_BINDING_ANNOTATION, statefulSetNameOf, ZOOKEEPER_ROLLING, ZOOKEEPER_SCALE, ZOOKEEPER_WORKLOAD, type KindInfo } from '@zk-oam/apis';
import { isApiError, KubeClient, PooledKubeConfig } from '@zk-oam/runtime';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  installCrds,
  installOam,
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
import { workerBed } from '../src/worker-bed.js';
import { readDiscovery, tenantZkCli, ZnodeClient, znodeCondition } from './znode-support.js';

const bed = workerBed();
const namespace = `oam-all-${Date.now().toString(36)}`;
const kubeConfig = new PooledKubeConfig();
kubeConfig.loadFromFile(bed.kubeconfig);
const api = new KubeClient(kubeConfig);
const apps = kubeConfig.makeApiClient(AppsV1Api);
const workloads = new WorkloadClient(bed);
const ENSEMBLE_TIMEOUT_MS = 600_000;
const running: ControllerProcess[] = [];
const conditionSchema = z.looseObject({ type: z.string(), status: z.string() });
const traitSchema = z.looseObject({
  status: z.looseObject({ phase: z.string().optional(), replicas: z.int().optional(), conditions: z.array(conditionSchema).optional() }).optional(),
});
/** A client application's path in the ensemble, as an OAM Component the ApplicationConfiguration can name. */
const TENANT_COMPONENT = `
apiVersion: core.oam.dev/v1alpha2
kind: Component
metadata: { name: tenant }
spec:
  workload:
    apiVersion: znode.zookeeper.zkoam.dev/v1alpha1
    kind: ZookeeperZnode
    spec: { workloadRef: { name: zookeeper } }
`;

function path(kind: Pick<KindInfo, 'group' | 'version' | 'plural'>, name: string): string {
  return `/apis/${kind.group}/${kind.version}/namespaces/${namespace}/${kind.plural}/${name}`;
}

async function read(kind: Pick<KindInfo, 'group' | 'version' | 'plural'>, name: string): Promise<z.infer<typeof traitSchema> | undefined> {
  try {
    return traitSchema.parse(await api.request('GET', path(kind, name)));
  } catch (error) {
    if (isApiError(error, 404)) return undefined;
    throw error;
  }
}

async function updateStrategy(): Promise<string | undefined> {
  return (await apps.readNamespacedStatefulSet({ namespace, name: statefulSetNameOf('zookeeper') })).spec?.updateStrategy?.type;
}

async function patchApp(operations: unknown[]): Promise<void> {
  await kubectl(bed, ['patch', 'applicationconfiguration', 'example', '-n', namespace, '--type=json', '-p', JSON.stringify(operations)]);
}

function traitReady(trait: z.infer<typeof traitSchema> | undefined): boolean {
  return trait?.status?.conditions?.some((condition) => condition.type === 'Ready' && condition.status === 'True') ?? false;
}

describe('the five controllers and the sample ApplicationConfiguration', () => {
  beforeAll(async () => {
    await installCrds(bed);
    await installOam(bed);
    for (const name of ['workload', 'appconfig']) running.push(await startControllerProcess({ bed, name }));
    for (const controller of running) await waitControllerReady(controller);
    await workloads.createNamespace(namespace);
    await kubectl(bed, ['apply', '--server-side', '-n', namespace, '-f', join(repoRoot, 'deploy/samples/component.yaml'), '-f', join(repoRoot, 'deploy/samples/application-configuration.yaml')]);
  });

  afterAll(async () => {
    await workloads.deleteNamespace(namespace);
    for (const controller of running) await stopCleanly(controller);
  });

  it('becomes a Ready 3-member ensemble whose traits wait for their controllers, which bind them once started', async () => {
    const ready = await waitFor('a Ready 3-member ensemble', () => workloads.get(namespace, 'zookeeper'), (w) => isReady(w) && w.status?.members?.length === 3 && w.status.members.every((m) => m.synced), ENSEMBLE_TIMEOUT_MS);
    const waiting = await read(ZOOKEEPER_SCALE, 'zookeeper-scale');
    expect(waiting).toBeDefined();
    expect(waiting?.status).toBeUndefined();
    expect(await updateStrategy()).toBe('RollingUpdate');

    for (const name of ['scale', 'rolling']) {
      const controller = await startControllerProcess({ bed, name });
      running.push(controller);
      await waitControllerReady(controller);
    }
    const bound = await waitFor('both traits bound', () => workloads.get(namespace, 'zookeeper'), (w) => w.metadata.annotations?.[ROLLING_BINDING_ANNOTATION] !== undefined && w.metadata.annotations[SCALE_BINDING_ANNOTATION] !== undefined, 120_000);
    expect(ready.status?.leader).toBeDefined();
    expect(bound.metadata.annotations).toMatchObject({ [SCALE_BINDING_ANNOTATION]: 'zookeeper-scale', [ROLLING_BINDING_ANNOTATION]: 'zookeeper-rolling' });
    await waitFor('the StatefulSet OnDelete', updateStrategy, (type) => type === 'OnDelete', 60_000);
    await waitFor('the scale trait Idle at 3', () => read(ZOOKEEPER_SCALE, 'zookeeper-scale'), (t) => t?.status?.phase === 'Idle' && t.status.replicas === 3, 120_000);
  });

  it('serves a znode added to the same ApplicationConfiguration: Ready beside the Ready ensemble and traits, a client writes through its connect string', async () => {
    const znodeController = await startControllerProcess({ bed, name: 'znode' });
    running.push(znodeController);
    await waitControllerReady(znodeController);
    await kubectl(bed, ['apply', '--server-side', '-n', namespace, '-f', '-'], TENANT_COMPONENT);
    await patchApp([{ op: 'add', path: '/spec/components/-', value: { componentName: 'tenant' } }]);
    const znodes = new ZnodeClient(bed);
    const znode = await waitFor('the znode Ready', () => znodes.get(namespace, 'tenant').catch(() => undefined), (z) => z !== undefined && znodeCondition(z, 'Ready')?.status === 'True', 120_000);
    expect(isReady(await workloads.get(namespace, 'zookeeper'))).toBe(true);
    await waitFor('both traits Ready', async () => [await read(ZOOKEEPER_SCALE, 'zookeeper-scale'), await read(ZOOKEEPER_ROLLING, 'zookeeper-rolling')], (traits) => traits.every(traitReady), 60_000);
    const discovery = await readDiscovery(workloads, namespace, 'tenant');
    expect(discovery.config[DISCOVERY_CONFIG_KEYS.connectString]).toBe(`zookeeper-client.${namespace}.svc.cluster.local:2181${znode?.status?.path ?? '?'}`);
    expect((await tenantZkCli(bed, discovery, ['create', '/written', 'by the tenant'])).output).toContain('Created /written');

    await patchApp([{ op: 'remove', path: '/spec/components/1' }]);
    await waitFor('the znode gone with its component', () => znodes.gone(namespace, 'tenant'), (gone) => gone, 120_000);
  });

  it('rolls a Component spec change (its revision v2) through the rolling trait, every pod once, the leader last', async () => {
    const leader = (await workloads.get(namespace, 'zookeeper')).status?.leader ?? '';
    const history = new PodHistory(memberPodSource(workloads, namespace, 'zookeeper'), 3);
    await history.start();
    await kubectl(bed, ['patch', 'component', 'zookeeper', '-n', namespace, '--type=json', '-p', JSON.stringify([{ op: 'replace', path: '/spec/workload/spec/resources/requests/cpu', value: '150m' }])]);

    const labelled = await waitFor('the workload at revision zookeeper-v2', () => workloads.get(namespace, 'zookeeper'), (w) => w.metadata.labels?.['app.oam.dev/revision'] === 'zookeeper-v2', 60_000);
    expect(labelled.spec.resources?.requests).toMatchObject({ cpu: '150m' });
    await waitFor('every pod restarted', async () => history.restarts.length, (count) => count >= 3, ENSEMBLE_TIMEOUT_MS);
    await waitFor('the rolling trait Completed', () => read(ZOOKEEPER_ROLLING, 'zookeeper-rolling'), (t) => t?.status?.phase === 'Completed', ENSEMBLE_TIMEOUT_MS);
    await waitFor('3 synced members', () => workloads.get(namespace, 'zookeeper'), (w) => isReady(w) && w.status?.members?.length === 3 && w.status.members.every((m) => m.synced), ENSEMBLE_TIMEOUT_MS);
    await history.stop();
    expect(history.counts()).toEqual(Object.fromEntries([0, 1, 2].map((ordinal) => [`zookeeper-${String(ordinal)}`, 1])));
    expect(history.order().at(-1)).toBe(leader);
  });

  it('scales to 5 when the scale trait in the ApplicationConfiguration asks for 5', async () => {
    await patchApp([{ op: 'replace', path: '/spec/components/0/traits/0/trait/spec/replicas', value: 5 }]);
    const scaled = await waitFor('5 synced members', () => workloads.get(namespace, 'zookeeper'), (w) => isReady(w) && w.status?.members?.length === 5 && w.status.members.every((m) => m.synced), ENSEMBLE_TIMEOUT_MS);
    expect(scaled.spec.replicas).toBe(5);
    await waitFor('the scale trait Idle at 5', () => read(ZOOKEEPER_SCALE, 'zookeeper-scale'), (t) => t?.status?.phase === 'Idle' && t.status.replicas === 5, 120_000);
  });

  it('deletes the rolling trait removed from the ApplicationConfiguration and returns the StatefulSet to RollingUpdate', async () => {
    await patchApp([{ op: 'remove', path: '/spec/components/0/traits/1' }]);
    await waitFor('the ZookeeperRolling gone', () => read(ZOOKEEPER_ROLLING, 'zookeeper-rolling'), (t) => t === undefined, 120_000);
    await waitFor('the StatefulSet RollingUpdate', updateStrategy, (type) => type === 'RollingUpdate', 60_000);
  });

  it('removes the workload and the traits when the ApplicationConfiguration is deleted', async () => {
    await kubectl(bed, ['delete', 'applicationconfiguration', 'example', '-n', namespace, '--wait=false']);
    await waitFor('the workload gone', () => read(ZOOKEEPER_WORKLOAD, 'zookeeper'), (w) => w === undefined, 180_000);
    await waitFor('the scale trait gone', () => read(ZOOKEEPER_SCALE, 'zookeeper-scale'), (t) => t === undefined, 180_000);
  });
});
