// The bed's apiserver enforces RBAC for ServiceAccounts, so the permissions we ship are what gets tested:
// a ServiceAccount without a Role is refused, with one it is allowed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiException, CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceAccountKubeconfig } from '../src/bed/index.js';
import { waitFor } from '../src/wait-for.js';
import { workerBed } from '../src/worker-bed.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const namespace = `bed-rbac-${Date.now().toString(36)}`;
const serviceAccount = 'pod-reader';
const workDir = mkdtempSync(join(tmpdir(), 'bed-rbac-'));
let admin: PooledKubeConfig;

function statusOf(error: unknown): number | undefined {
  return error instanceof ApiException ? error.code : undefined;
}

async function listPodsAs(kubeconfigFile: string): Promise<number> {
  const kubeconfig = new PooledKubeConfig();
  kubeconfig.loadFromFile(kubeconfigFile);
  try {
    await kubeconfig.makeApiClient(CoreV1Api).listNamespacedPod({ namespace });
    return 200;
  } catch (error) {
    const code = statusOf(error);
    if (code === undefined) throw error;
    return code;
  }
}

describe('ServiceAccount permissions on the bed', () => {
  beforeAll(async () => {
    admin = new PooledKubeConfig();
    admin.loadFromFile(workerBed().kubeconfig);
    const core = admin.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: namespace } } });
    await core.createNamespacedServiceAccount({ namespace, body: { metadata: { name: serviceAccount } } });
  });

  afterAll(async () => {
    await admin.makeApiClient(CoreV1Api).deleteNamespace({ name: namespace });
    rmSync(workDir, { recursive: true, force: true });
  });

  it('refuses a ServiceAccount without a Role with 403, and allows it once a RoleBinding grants the Role', async () => {
    const adminKubeconfig = workerBed().kubeconfig;
    const kubeconfig = await serviceAccountKubeconfig(adminKubeconfig, namespace, serviceAccount, join(workDir, 'kubeconfig'));

    expect(await listPodsAs(kubeconfig)).toBe(403);

    const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
    await rbac.createNamespacedRole({
      namespace,
      body: { metadata: { name: 'pod-reader' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }] },
    });
    await rbac.createNamespacedRoleBinding({
      namespace,
      body: {
        metadata: { name: 'pod-reader' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' },
        subjects: [{ kind: 'ServiceAccount', name: serviceAccount, namespace }],
      },
    });

    // The RBAC authorizer reads bindings from a watch cache: allow it a moment to see the new ones.
    await waitFor('the ServiceAccount allowed to list pods', () => listPodsAs(kubeconfig), (status) => status === 200, 30_000);
  });
});
