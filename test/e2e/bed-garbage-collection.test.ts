// The bed's controller manager really runs: owner references are garbage-collected and deleted
// namespaces are emptied and removed.
import { ApiException, CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../src/wait-for.js';
import { workerBed } from '../src/worker-bed.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const namespace = `bed-gc-${Date.now().toString(36)}`;
let core: CoreV1Api;

async function configMapExists(name: string): Promise<boolean> {
  try {
    await core.readNamespacedConfigMap({ namespace, name });
    return true;
  } catch (error) {
    if (error instanceof ApiException && error.code === 404) return false;
    throw error;
  }
}

async function namespaceExists(name: string): Promise<boolean> {
  try {
    await core.readNamespace({ name });
    return true;
  } catch (error) {
    if (error instanceof ApiException && error.code === 404) return false;
    throw error;
  }
}

describe('garbage collection on the bed', () => {
  beforeAll(async () => {
    const kubeconfig = new PooledKubeConfig();
    kubeconfig.loadFromFile(workerBed().kubeconfig);
    core = kubeconfig.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: namespace } } });
  });

  afterAll(async () => {
    await core.deleteNamespace({ name: namespace }).catch((error: unknown) => {
      if (!(error instanceof ApiException && error.code === 404)) throw error;
    });
  });

  it('deletes a ConfigMap whose owner ConfigMap was deleted', async () => {
    const owner = await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'owner' }, data: { role: 'owner' } },
    });
    const uid = owner.metadata?.uid;
    expect(uid).toBeTypeOf('string');
    await core.createNamespacedConfigMap({
      namespace,
      body: {
        metadata: {
          name: 'dependent',
          ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: uid ?? '' }],
        },
        data: { role: 'dependent' },
      },
    });
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'bystander' } } });

    await core.deleteNamespacedConfigMap({ namespace, name: 'owner', propagationPolicy: 'Background' });

    await waitFor('the dependent ConfigMap collected', () => configMapExists('dependent'), (exists) => !exists, 60_000);
    expect(await configMapExists('bystander')).toBe(true);
  });

  it('removes a deleted namespace together with the objects in it', async () => {
    await core.deleteNamespace({ name: namespace });

    await waitFor(`namespace ${namespace} gone`, () => namespaceExists(namespace), (exists) => !exists, 120_000);
  });
});
