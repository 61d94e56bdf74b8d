// Least privilege, as the apiserver enforces it: each controller's ServiceAccount, with exactly the RBAC shipped in
// deploy/<controller>/, is refused (403) what that controller must never do, and allowed what it needs (a control that
// shows the refusals come from the rules, not from a broken identity).
import { derivedNames } from '@zk-oam/apis';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { KubeApiError, KubeClient, PooledKubeConfig } from '@zk-oam/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceAccountKubeconfig } from '../src/bed/index.js';
import { CONTROLLER_NAMESPACE, installControllerRbac, installCrds, installOam, WorkloadClient } from '../src/controllers/index.js';
import { workerBed } from '../src/worker-bed.js';

const bed = workerBed();
const namespace = `rbac-${Date.now().toString(36)}`;
const ns = `/namespaces/${namespace}`;

interface Request {
  readonly what: string;
  readonly verb: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
}

const get = (what: string, path: string): Request => ({ what, verb: 'GET', path });
const remove = (what: string, path: string): Request => ({ what, verb: 'DELETE', path });
const patch = (what: string, path: string): Request => ({ what, verb: 'PATCH', path });
const create = (what: string, path: string): Request => ({ what, verb: 'POST', path });

const WORKLOADS = `/apis/workload.zookeeper.zkoam.dev/v1alpha1${ns}/zookeeperworkloads`;
const SCALES = `/apis/scale.zookeeper.zkoam.dev/v1alpha1${ns}/zookeeperscales`;

/** What each controller must never be able to do, and one thing it needs (the control). */
const CASES: Record<string, { forbidden: readonly Request[]; allowed: Request }> = {
  workload: {
    forbidden: [
      remove('delete a pod', `/api/v1${ns}/pods/zk-0`),
      patch("change a workload's spec (it writes status only)", `${WORKLOADS}/zk`),
      remove('delete a StatefulSet (garbage collection does)', `/apis/apps/v1${ns}/statefulsets/zk`),
      remove('delete a PVC', `/api/v1${ns}/persistentvolumeclaims/data-zk-0`),
      create('create a scale trait', SCALES),
    ],
    allowed: get('read a Secret', `/api/v1${ns}/secrets/${derivedNames('zk').defaultSuperuserSecret}`),
  },
  scale: {
    forbidden: [
      remove('delete a pod', `/api/v1${ns}/pods/zk-0`),
      patch('change a StatefulSet', `/apis/apps/v1${ns}/statefulsets/zk`),
      create('create a ConfigMap', `/api/v1${ns}/configmaps`),
      get('list Secrets', `/api/v1${ns}/secrets`),
      remove('delete a workload', `${WORKLOADS}/zk`),
    ],
    allowed: patch("set a workload's replicas", `${WORKLOADS}/zk`),
  },
  rolling: {
    forbidden: [
      get('list Secrets', `/api/v1${ns}/secrets`),
      remove('delete a PVC', `/api/v1${ns}/persistentvolumeclaims/data-zk-0`),
      patch('change a StatefulSet', `/apis/apps/v1${ns}/statefulsets/zk`),
      remove('delete a workload', `${WORKLOADS}/zk`),
    ],
    allowed: remove('delete a pod', `/api/v1${ns}/pods/zk-0`),
  },
  znode: {
    forbidden: [
      get('list Secrets', `/api/v1${ns}/secrets`),
      remove('delete a Secret', `/api/v1${ns}/secrets/zk-users`),
      remove('delete a pod', `/api/v1${ns}/pods/zk-0`),
      patch("change a workload's spec", `${WORKLOADS}/zk`),
      create('create a StatefulSet', `/apis/apps/v1${ns}/statefulsets`),
    ],
    allowed: patch("write a tenant's key into a users Secret", `/api/v1${ns}/secrets/zk-users`),
  },
  appconfig: {
    forbidden: [
      get('read a Secret', `/api/v1${ns}/secrets/${derivedNames('zk').defaultSuperuserSecret}`),
      remove('delete a pod', `/api/v1${ns}/pods/zk-0`),
      create('create a StatefulSet', `/apis/apps/v1${ns}/statefulsets`),
      patch('change a ConfigMap', `/api/v1${ns}/configmaps/${derivedNames('zk').configMap}`),
    ],
    allowed: get('read a workload', `${WORKLOADS}/zk`),
  },
};

/** The HTTP status the apiserver answers `request` with, as the controller's ServiceAccount. */
async function statusOf(client: KubeClient, request: Request): Promise<number> {
  const body = request.verb === 'PATCH' ? { metadata: { labels: { probe: 'rbac' } } } : request.verb === 'POST' ? { metadata: { name: 'probe' } } : undefined;
  try {
    await client.request(request.verb, request.path, {
      ...(body === undefined ? {} : { body }),
      ...(request.verb === 'PATCH' ? { contentType: 'application/merge-patch+json' } : {}),
    });
    return 200;
  } catch (error) {
    if (error instanceof KubeApiError) return error.code;
    throw error;
  }
}

const clients = new Map<string, KubeClient>();

describe('each controller with only its own RBAC', () => {
  beforeAll(async () => {
    await installCrds(bed);
    await installOam(bed);
    await new WorkloadClient(bed).createNamespace(namespace);
    await mkdir(join(bed.dir, 'controllers'), { recursive: true });
    for (const name of Object.keys(CASES)) {
      await installControllerRbac(bed, name);
      const file = await serviceAccountKubeconfig(bed.kubeconfig, CONTROLLER_NAMESPACE, `zk-oam-${name}`, join(bed.dir, 'controllers', `rbac-${name}.kubeconfig`));
      const kubeConfig = new PooledKubeConfig();
      kubeConfig.loadFromFile(file);
      clients.set(name, new KubeClient(kubeConfig));
    }
  });

  afterAll(async () => {
    await new WorkloadClient(bed).deleteNamespace(namespace);
  });

  it.each(Object.entries(CASES))('the %s controller is refused what it must never do and allowed what it needs', async (name, { forbidden, allowed }) => {
    const client = clients.get(name);
    if (client === undefined) throw new Error(`no client for ${name}`);
    const answers = await Promise.all(forbidden.map(async (request) => [request.what, await statusOf(client, request)] as const));
    expect(Object.fromEntries(answers)).toEqual(Object.fromEntries(forbidden.map((request) => [request.what, 403])));
    // Allowed: whatever the answer (404 for an object that is not there), it is not a refusal.
    expect(await statusOf(client, allowed)).not.toBe(403);
  });
});
