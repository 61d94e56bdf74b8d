// The ClusterRoles shipped for people (deploy/crds/user-roles.yaml): through Kubernetes' aggregation, whoever holds the
// built-in view role in a namespace may read the ZooKeeper kinds there, whoever holds edit or admin may also change
// them (and scale through the scale subresource, as `kubectl scale zks` does), and nobody else may do either. Asked of
// the bed's real RBAC authorizer, as each ServiceAccount (kubectl auth can-i --as).
import { join } from 'node:path';
import { CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { ZOOKEEPER_ROLLING, ZOOKEEPER_SCALE, ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../src/controllers/command.js';
import { installCrds, waitFor } from '../src/controllers/index.js';
import { workerBed } from '../src/worker-bed.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const bed = workerBed();
const namespace = `user-roles-${Date.now().toString(36)}`;
const admin = new PooledKubeConfig();
admin.loadFromFile(bed.kubeconfig);
const PEOPLE = { viewer: 'view', editor: 'edit', owner: 'admin', nobody: undefined } as const;
type Person = keyof typeof PEOPLE;

const workloads = `${ZOOKEEPER_WORKLOAD.plural}.${ZOOKEEPER_WORKLOAD.group}`;
const scales = `${ZOOKEEPER_SCALE.plural}.${ZOOKEEPER_SCALE.group}`;
const rollings = `${ZOOKEEPER_ROLLING.plural}.${ZOOKEEPER_ROLLING.group}`;

/** What the authorizer answers for `person` (yes or no), in the test's namespace unless told another. */
async function may(person: Person, verb: string, resource: string, where: { subresource?: string; in?: string } = {}): Promise<string> {
  const args = ['--kubeconfig', bed.kubeconfig, 'auth', 'can-i', verb, resource, '-n', where.in ?? namespace, `--as=system:serviceaccount:${namespace}:${person}`];
  const { stdout } = await runCommand(join(bed.binDir, 'kubectl'), [...args, ...(where.subresource === undefined ? [] : [`--subresource=${where.subresource}`])]);
  return stdout.trim();
}

describe('the ClusterRoles for people, aggregated into view, edit and admin', () => {
  beforeAll(async () => {
    await installCrds(bed);
    await admin.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: namespace } } });
    const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
    for (const [person, role] of Object.entries(PEOPLE)) {
      await admin.makeApiClient(CoreV1Api).createNamespacedServiceAccount({ namespace, body: { metadata: { name: person } } });
      if (role === undefined) continue;
      await rbac.createNamespacedRoleBinding({
        namespace,
        body: {
          metadata: { name: `${person}-${role}` },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
          subjects: [{ kind: 'ServiceAccount', name: person, namespace }],
        },
      });
    }
    // The aggregation controller copies the rules into the built-in roles; the authorizer sees them from its cache.
    await waitFor('the editor to be allowed to create workloads', () => may('editor', 'create', workloads), (answer) => answer === 'yes', 60_000);
    await waitFor('the viewer to be allowed to list workloads', () => may('viewer', 'list', workloads), (answer) => answer === 'yes', 60_000);
  });

  afterAll(async () => {
    await admin.makeApiClient(CoreV1Api).deleteNamespace({ name: namespace });
  });

  it('lets view read every ZooKeeper kind and change none', async () => {
    for (const resource of [workloads, scales, rollings]) {
      expect(await may('viewer', 'get', resource), resource).toBe('yes');
      expect(await may('viewer', 'watch', resource), resource).toBe('yes');
      expect(await may('viewer', 'create', resource), resource).toBe('no');
      expect(await may('viewer', 'delete', resource), resource).toBe('no');
    }
    expect(await may('viewer', 'update', scales, { subresource: 'scale' })).toBe('no');
  });

  it('lets edit and admin change them, scale subresource included', async () => {
    for (const person of ['editor', 'owner'] as const) {
      for (const resource of [workloads, scales, rollings]) {
        expect(await may(person, 'create', resource), `${person} ${resource}`).toBe('yes');
        expect(await may(person, 'patch', resource), `${person} ${resource}`).toBe('yes');
        expect(await may(person, 'delete', resource), `${person} ${resource}`).toBe('yes');
      }
      expect(await may(person, 'update', scales, { subresource: 'scale' }), person).toBe('yes');
    }
  });

  it('gives nothing to a ServiceAccount without a role, and nothing outside the namespace bound', async () => {
    expect(await may('nobody', 'list', workloads)).toBe('no');
    expect(await may('editor', 'create', workloads, { in: 'default' })).toBe('no');
  });
});
