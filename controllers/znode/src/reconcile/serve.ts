// Steps: credentials, publish, path. The tenant's user (on a workload with SASL), the discovery objects, then the path
// with the ACL that lets only that user in (and the superuser, whom ZooKeeper lets past every ACL). Each is safe to
// repeat: what is already as it should be is left alone.
import type { ZookeeperZnode } from '@zk-oam/apis';
import { keyOf, type KubeObject, type ReconcileContext } from '@zk-oam/runtime';
import { tenantAcl } from '@zk-oam/zookeeper';
import { connectionOf } from '../render/index.js';
import { credentialsPending, grantUser, tenantCredentials } from './credentials.js';
import type { ZnodeReconcilerDependencies } from './dependencies.js';
import { inStep } from './errors.js';
import { publish } from './publish.js';
import type { ServedFinding, ServeVerdict } from './verdict.js';
import { memberAccess, onZooKeeper } from './zookeeper.js';

export async function serve(deps: ZnodeReconcilerDependencies, raw: KubeObject, znode: ZookeeperZnode, verdict: ServeVerdict, log: ReconcileContext['log']): Promise<ServedFinding> {
  const key = keyOf(raw);
  const { workload, members, path } = verdict;
  const access = await memberAccess(deps, key, 'Publish', workload);
  const sasl = workload.spec.authentication?.sasl;
  const tenant = sasl === undefined ? undefined : await inStep('Credentials', 'CredentialsWriteFailed', key, () => tenantCredentials(deps, znode));
  const connection = connectionOf(workload, path);
  const discoveryChanged = await publish(deps, key, { znode, connection, ca: access.tls?.ca, credentials: tenant?.credentials });
  if (sasl !== undefined && tenant !== undefined) {
    await inStep('Credentials', 'CredentialsWriteFailed', key, () => grantUser(deps, znode, sasl.usersSecretRef.name, tenant.credentials));
  }
  const principal = tenant === undefined ? undefined : { scheme: 'sasl', id: tenant.credentials.user };
  const ensured = await onZooKeeper(deps, key, 'Path', { workload, members, access }, (admin) => admin.ensurePath(path, tenantAcl(principal)));
  if (ensured.created || ensured.aclChanged) log.info({ path, principal, created: ensured.created }, 'tenant path made sure of');
  const pending = tenant === undefined ? undefined : await inStep('Credentials', 'CredentialsWriteFailed', key, () => credentialsPending(deps, workload, tenant.credentials.user, members));
  return {
    kind: 'Served',
    path,
    connection,
    principal: principal === undefined ? undefined : `${principal.scheme}:${principal.id}`,
    created: ensured.created,
    aclChanged: ensured.aclChanged,
    credentialsCreated: tenant?.created ?? false,
    discoveryChanged,
    pending,
  };
}
