// Step: credentials, on a workload with SASL. The tenant's own user: its password is kept in the discovery Secret
// (made once, read back after), its entry in the workload's users Secret applied by a field manager of this znode's own
// (so removing it touches nothing else), and whether every member started with the JAAS file that carries it.
import {
  derivedNames,
  DISCOVERY_SECRET_KEYS,
  discoveryNames,
  SASL_SECRET_KEYS,
  znodeSaslUser,
  type ZookeeperWorkload,
  type ZookeeperZnode,
} from '@zk-oam/apis';
import { applyObject, coreResources } from '@zk-oam/runtime';
import type { SaslCredentials } from '../render/index.js';
import type { ZnodeReconcilerDependencies } from './dependencies.js';
import type { MemberView } from './observe.js';
import { decodeBase64, readData } from './read-data.js';
import { credentialsFieldManager } from './resources.js';

type Deps = Pick<ZnodeReconcilerDependencies, 'client' | 'newPassword'>;

/** The tenant's user and password: the one the discovery Secret holds, or a new one (`created`). */
export async function tenantCredentials(deps: Deps, znode: ZookeeperZnode): Promise<{ credentials: SaslCredentials; created: boolean }> {
  const { namespace = '', uid = '' } = znode.metadata;
  const stored = await readData(deps.client, 'secret', { namespace, name: discoveryNames(znode.metadata.name).secret });
  const password = decodeBase64(stored?.data[DISCOVERY_SECRET_KEYS.saslPassword]);
  const user = znodeSaslUser(uid);
  return password === undefined || password === '' ? { credentials: { user, password: deps.newPassword() }, created: true } : { credentials: { user, password }, created: false };
}

/** The workload's users Secret, in the workload's namespace (which may not be the znode's). */
export type UsersSecret = { readonly namespace: string; readonly name: string };

/** Puts the tenant's user into the workload's users Secret unless it is there with this password; a missing Secret is the workload's to report. */
export async function grantUser(deps: Deps, znode: ZookeeperZnode, usersSecret: UsersSecret, credentials: SaslCredentials): Promise<void> {
  const stored = await readData(deps.client, 'secret', usersSecret);
  if (stored === undefined) throw new Error(`the workload's SASL users Secret ${usersSecret.name} does not exist`);
  const encoded = Buffer.from(credentials.password, 'utf8').toString('base64');
  if (stored.data[credentials.user] === encoded) return;
  await applyObject(deps.client, coreResources.secret, { apiVersion: 'v1', kind: 'Secret', metadata: { ...usersSecret }, data: { [credentials.user]: encoded } }, { fieldManager: credentialsFieldManager(znode.metadata.uid ?? '') });
}

/** Takes the tenant's user out of the users Secret: an apply of nothing by its field manager drops the key it alone owned. */
export async function revokeUser(deps: Pick<Deps, 'client'>, znode: ZookeeperZnode, usersSecret: UsersSecret): Promise<boolean> {
  const stored = await readData(deps.client, 'secret', usersSecret);
  if (stored?.data[znodeSaslUser(znode.metadata.uid ?? '')] === undefined) return false;
  await applyObject(deps.client, coreResources.secret, { apiVersion: 'v1', kind: 'Secret', metadata: { ...usersSecret } }, { fieldManager: credentialsFieldManager(znode.metadata.uid ?? '') });
  return true;
}

/** The users Secret a workload with SASL names, in its namespace. */
export function usersSecretOf(workload: ZookeeperWorkload, sasl: { usersSecretRef: { name: string } }): UsersSecret {
  return { namespace: workload.metadata.namespace ?? '', name: sasl.usersSecretRef.name };
}

/**
 * Why the tenant cannot log in yet, or undefined when it can: every member reads the JAAS file at start only, so each
 * must run the revision of `<workload>-sasl` that lists the user (the workload controller renders it from the users
 * Secret, and the members restart onto it).
 */
export async function credentialsPending(deps: Pick<Deps, 'client'>, workload: ZookeeperWorkload, user: string, members: readonly MemberView[]): Promise<string | undefined> {
  const { name, namespace = '' } = workload.metadata;
  const jaasSecret = derivedNames(name).saslSecret;
  const stored = await readData(deps.client, 'secret', { namespace, name: jaasSecret });
  const jaas = decodeBase64(stored?.data[SASL_SECRET_KEYS.jaas]) ?? '';
  if (stored === undefined || !jaas.includes(`user_${user}="`)) return `waiting for the workload controller to add user ${user} to the members' JAAS Secret ${jaasSecret}`;
  const expected = workload.status?.replicas ?? 1;
  const behind = members.filter((member) => member.saslRevision !== stored.resourceVersion || !member.ready).map((member) => member.pod);
  if (behind.length > 0 || members.length < expected) {
    const who = behind.length > 0 ? behind.join(', ') : `${String(expected - members.length)} member(s)`;
    return `members restarting onto the JAAS Secret ${jaasSecret} that lists user ${user}: ${who} not yet`;
  }
  return undefined;
}
