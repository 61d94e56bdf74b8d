// The workload controller around an ensemble's life, with pods that never schedule (a nodeSelector no node matches),
// so no ZooKeeper has to run: deletion honours the storage reclaim policy, and ServiceMonitor/PrometheusRule follow
// the monitoring CRDs' presence without anything failing while they are absent.
import { derivedNames, ordinalOfVolume, statefulSetNameOf, ZOOKEEPER_WORKLOAD, type ZookeeperWorkload } from '@zk-oam/apis';
import { fileURLToPath } from 'node:url';
import { AppsV1Api, Watch } from '@kubernetes/client-node';
import { isApiError, KubeClient, PooledKubeConfig } from '@zk-oam/runtime';
import { z } from 'zod';
import { afterAll, describe, expect, it } from 'vitest';
import { bedWorkloadSpec, eventsAbout, kubectl, useWorkloadController, waitFor } from '../src/controllers/index.js';
import { workerBed } from '../src/worker-bed.js';

const bed = workerBed();
// A short discovery TTL, so installing the monitoring CRDs is noticed within seconds.
const suite = useWorkloadController(bed, { namespacePrefix: 'wl-life', env: { MONITORING_DISCOVERY_TTL_MS: '2000' } });
const { client, namespace } = suite;
const kubeConfig = new PooledKubeConfig();
kubeConfig.loadFromFile(bed.kubeconfig);
const api = new KubeClient(kubeConfig);
const apps = kubeConfig.makeApiClient(AppsV1Api);
const monitoringCrds = fileURLToPath(new URL('../fixtures/monitoring-crds.yaml', import.meta.url));
const unschedulable = { placement: { nodeSelector: { 'zkoam.dev/no-such-node': 'true' } } };

/** Whether GET `path` finds the object (404 means gone). */
async function exists(path: string): Promise<boolean> {
  try {
    await api.request('GET', path);
    return true;
  } catch (error) {
    if (isApiError(error, 404)) return false;
    throw error;
  }
}

const itemsSchema = z.object({ items: z.array(z.looseObject({ metadata: z.looseObject({ name: z.string() }) })) });

async function names(path: string): Promise<string[]> {
  return itemsSchema.parse(await api.request('GET', path)).items.map((item) => item.metadata.name).sort();
}

function childPaths(name: string): string[] {
  const ns = `/namespaces/${namespace}`;
  return [
    `/apis/apps/v1${ns}/statefulsets/${derivedNames(name).statefulSet}`,
    `/api/v1${ns}/configmaps/${derivedNames(name).configMap}`,
    `/api/v1${ns}/services/${derivedNames(name).headlessService}`,
    `/api/v1${ns}/services/${derivedNames(name).clientService}`,
    `/apis/policy/v1${ns}/poddisruptionbudgets/${derivedNames(name).podDisruptionBudget}`,
    `/api/v1${ns}/secrets/${derivedNames(name).defaultSuperuserSecret}`,
  ];
}

async function pvcsOf(name: string): Promise<string[]> {
  return (await names(`/api/v1/namespaces/${namespace}/persistentvolumeclaims`)).filter((pvc) => ordinalOfVolume(pvc, derivedNames(name).statefulSet) !== undefined);
}

afterAll(async () => {
  await kubectl(bed, ['delete', '--ignore-not-found', '-f', monitoringCrds]);
});

describe("a new workload's status", () => {
  it('says from its first write that the StatefulSet exists (Creating, never NotCreated), and lists each member pod', async () => {
    const name = 'first-status';
    const readyReasons: string[] = [];
    const path = `/apis/${ZOOKEEPER_WORKLOAD.apiVersion}/namespaces/${namespace}/${ZOOKEEPER_WORKLOAD.plural}`;
    const watching = await new Watch(kubeConfig).watch(path, { fieldSelector: `metadata.name=${name}` }, (_type: string, object: ZookeeperWorkload) => {
      const ready = object.status?.conditions?.find((condition) => condition.type === 'Ready');
      if (ready !== undefined) readyReasons.push(ready.reason);
    }, () => undefined);
    try {
      await client.create(namespace, name, bedWorkloadSpec({ replicas: 3, ...unschedulable }));
      await waitFor(`3 members of ${name} listed`, () => client.get(namespace, name), (workload) => workload.status?.members?.length === 3, 60_000, 500);
    } finally {
      watching.abort();
    }
    expect(readyReasons[0]).toBe('Creating');
    expect(readyReasons).not.toContain('NotCreated');
  });
});

describe('a workload deleted with each storage reclaim policy', () => {
  it.each([
    ['Delete', 'removes every child and every PVC', 'del'],
    ['Retain', 'removes every child but keeps the PVCs', 'ret'],
  ] as const)('with reclaimPolicy %s %s', async (reclaimPolicy, _what, name) => {
    await client.create(namespace, name, bedWorkloadSpec({ ...unschedulable, storage: { size: '64Mi', storageClassName: 'bed-local', reclaimPolicy } }));
    await waitFor(`children of ${name}`, async () => Promise.all(childPaths(name).map(exists)), (found) => found.every(Boolean), 60_000, 500);
    const pvcs = await waitFor(`3 PVCs of ${name}`, () => pvcsOf(name), (found) => found.length === 3, 60_000);
    const sts = await apps.readNamespacedStatefulSet({ namespace, name: statefulSetNameOf(name) });
    expect(sts.spec?.persistentVolumeClaimRetentionPolicy).toEqual({ whenDeleted: reclaimPolicy, whenScaled: 'Retain' });

    await client.delete(namespace, name);

    await waitFor(`children of ${name} gone`, async () => Promise.all(childPaths(name).map(exists)), (found) => found.every((f) => !f), 120_000, 500);
    await waitFor(`pods of ${name} gone`, async () => (await names(`/api/v1/namespaces/${namespace}/pods`)).filter((pod) => pod.startsWith(`${name}-`)), (pods) => pods.length === 0, 120_000);
    if (reclaimPolicy === 'Delete') {
      await waitFor(`PVCs of ${name} gone`, () => pvcsOf(name), (found) => found.length === 0, 120_000);
    } else {
      expect(await pvcsOf(name)).toEqual(pvcs);
    }
  });
});

describe('monitoring objects', () => {
  const name = 'mon';
  const monitoringPath = (plural: string): string => `/apis/monitoring.coreos.com/v1/namespaces/${namespace}/${plural}/${name}`;

  it('renders the workload without failing while the monitoring CRDs are absent', async () => {
    const created = await client.create(namespace, name, bedWorkloadSpec({ ...unschedulable, metrics: { enabled: true } }));

    const observed = await waitFor('a status', () => client.get(namespace, name), (w) => w.status?.phase !== undefined, 60_000);
    expect(observed.metadata.uid).toBe(created.metadata.uid);
    expect(await exists(`/apis/apps/v1/namespaces/${namespace}/statefulsets/${statefulSetNameOf(name)}`)).toBe(true);
    const warnings = (await eventsAbout(client, namespace, name)).filter((event) => event.type === 'Warning');
    expect(warnings).toEqual([]);
    expect(suite.controller().running()).toBe(true);
  });

  it('creates a ServiceMonitor and a PrometheusRule owned by the workload once the CRDs are installed', async () => {
    const workload = await client.get(namespace, name);

    await kubectl(bed, ['apply', '--server-side', '-f', monitoringCrds]);
    await kubectl(bed, ['wait', '--for=condition=Established', '--timeout=60s', '-f', monitoringCrds]);

    const ownerSchema = z.looseObject({
      metadata: z.looseObject({ ownerReferences: z.array(z.looseObject({ uid: z.string(), controller: z.boolean().optional() })) }),
      spec: z.looseObject({}),
    });
    for (const plural of ['servicemonitors', 'prometheusrules']) {
      const object = await waitFor(`${plural}/${name}`, () => api.request('GET', monitoringPath(plural)), () => true, 60_000);
      expect(ownerSchema.parse(object).metadata.ownerReferences).toEqual([expect.objectContaining({ uid: workload.metadata.uid, controller: true })]);
    }
    const rules = z
      .object({ spec: z.object({ groups: z.array(z.object({ rules: z.array(z.looseObject({ alert: z.string() })) })) }) })
      .parse(await api.request('GET', monitoringPath('prometheusrules')));
    expect(rules.spec.groups.flatMap((group) => group.rules).length).toBeGreaterThanOrEqual(3);
  });
});

