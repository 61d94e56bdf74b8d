// Steps: credentials, publish, path. The tenant's user (on a workload with SASL, unless the tenant brings a certificate),
// the discovery objects, then the path with the ACL that lets only that principal in (and the superuser, whom ZooKeeper lets past every ACL). Each is safe to
// repeat: what is already as it should be is left alone. What a step changed is a Normal Event as soon as it is done,
// so that a later step's failure does not lose it.
import type { ZnodeReason, ZookeeperZnode } from '@zk-oam/apis';
import { keyOf, type EventDetails, type KubeObject, type ReconcileContext } from '@zk-oam/runtime';
import { tenantAcl } from '@zk-oam/zookeeper';
import { principalId } from '../plan/index.js';
import { connectionOf, type SaslCredentials } from '../render/index.js';
import { credentialsPending, grantUser, tenantCredentials, usersSecretOf, type UsersSecret } from './credentials.js';
import type { ZnodeReconcilerDependencies } from './dependencies.js';
import { inStep } from './errors.js';
import { publish } from './publish.js';
import type { ServedFinding, ServeVerdict } from './verdict.js';
import { memberAccess, onZooKeeper } from './zookeeper.js';

export async function serve(deps: ZnodeReconcilerDependencies, raw: KubeObject, znode: ZookeeperZnode, verdict: ServeVerdict, log: ReconcileContext['log']): Promise<ServedFinding> {
  const key = keyOf(raw);
  const { workload, members, path } = verdict;
  const access = await memberAccess(deps, key, 'Publish', workload);
  const sasl = verdict.principal.kind === 'sasl' ? workload.spec.authentication?.sasl : undefined;
  const tenant = sasl === undefined ? undefined : await inStep('Credentials', 'CredentialsWriteFailed', key, () => tenantCredentials(deps, znode));
  const connection = connectionOf(workload, path);
  if (await publish(deps, key, { znode, connection, ca: access.tls?.ca, credentials: tenant?.credentials })) {
    await deps.recorder.record(raw, { type: 'Normal', reason: 'DiscoveryPublished', action: 'Publish', note: `wrote the discovery ConfigMap and Secret: ${connection.connectString}` });
  }
  if (sasl !== undefined && tenant !== undefined) await grant(deps, raw, znode, usersSecretOf(workload, sasl), tenant);
  const principal = aclPrincipal(verdict.principal, tenant?.credentials);
  const ensured = await onZooKeeper(deps, key, 'Path', { workload, members, access }, (admin) => admin.ensurePath(path, tenantAcl(principal)));
  const id = principal === undefined ? undefined : principalId(principal);
  const known = znode.status?.exists === true && znode.status.path === path;
  const event = pathEvent(path, { ...ensured, known }, id);
  if (event !== undefined) {
    log.info({ path, principal: id, event: event.reason }, 'tenant path made sure of');
    await deps.recorder.record(raw, event);
  }
  const pending = tenant === undefined ? undefined : await inStep('Credentials', 'CredentialsWriteFailed', key, () => credentialsPending(deps, workload, tenant.credentials.user, members));
  return { kind: 'Served', path, connection, principal: id, pending };
}

/** Whom the path's ACL names: the SASL user made for the tenant, or the subject of the certificate it brings. */
function aclPrincipal(principal: ServeVerdict['principal'], credentials: SaslCredentials | undefined): { scheme: 'sasl' | 'x509'; id: string } | undefined {
  switch (principal.kind) {
    case 'sasl':
      return credentials === undefined ? undefined : { scheme: 'sasl', id: credentials.user };
    case 'x509':
      return { scheme: 'x509', id: principal.subject };
    case 'open':
      return undefined;
  }
}

/** The tenant's user into the users Secret; a new one is an Event. */
async function grant(deps: ZnodeReconcilerDependencies, raw: KubeObject, znode: ZookeeperZnode, usersSecret: UsersSecret, tenant: { credentials: SaslCredentials; created: boolean }): Promise<void> {
  await inStep('Credentials', 'CredentialsWriteFailed', keyOf(raw), () => grantUser(deps, znode, usersSecret, tenant.credentials));
  if (!tenant.created) return;
  const note = `made the SASL user ${tenant.credentials.user}, in the workload's users Secret ${usersSecret.namespace}/${usersSecret.name} and the discovery Secret`;
  await deps.recorder.record(raw, { type: 'Normal', reason: 'CredentialsCreated', action: 'CreateCredentials', note });
}

/**
 * What the path step did, as an Event; none when the path was already known with its ACL. A path found with the
 * tenant's ACL before the status knew it is said too: a create whose reply a member's restart lost leaves exactly that,
 * and the tenant's story would otherwise have no path in it.
 */
export function pathEvent(path: string, outcome: { created: boolean; aclChanged: boolean; known: boolean }, principal: string | undefined): EventDetails<ZnodeReason> | undefined {
  const who = principal === undefined ? 'open to anyone (the workload does not authenticate clients)' : `for ${principal} alone`;
  if (outcome.created) return { type: 'Normal', reason: 'PathCreated', action: 'CreatePath', note: `created ${path}, ${who}` };
  if (outcome.aclChanged) return { type: 'Normal', reason: 'AclRestored', action: 'SetAcl', note: `set the ACL of ${path} back: ${who}` };
  if (outcome.known) return undefined;
  return { type: 'Normal', reason: 'PathFound', action: 'AdoptPath', note: `found ${path} already there with the tenant's ACL, ${who}` };
}
