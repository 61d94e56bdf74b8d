// Step 2: the superuser Secret. The user's (spec.superuserSecretRef) is checked; otherwise `<name>-superuser` is
// generated once with a random password and from then on used as it is, never rotated silently.
import { randomBytes } from 'node:crypto';
import { SUPERUSER_SECRET_KEYS, type ZookeeperWorkload } from '@zk-oam/apis';
import { coreResources, isApiError, collectionPath, type KubeClient } from '@zk-oam/runtime';
import { buildSuperuserSecret } from '../render/superuser-secret.js';
import { workloadNames } from '../render/identity.js';
import type { ChildAction } from './apply-children.js';
import type { WorkloadReconcilerDependencies } from './dependencies.js';
import { SuperuserSecretInvalidError } from './errors.js';
import { encodedData, readSecret } from './secrets.js';

type Deps = Pick<WorkloadReconcilerDependencies, 'caches'> & { readonly client: Pick<KubeClient, 'request'> };

/** 32 bytes of entropy, printable without quoting. */
export function generatePassword(): string {
  return randomBytes(32).toString('base64url');
}

function checkKeys(secret: unknown, name: string): void {
  const data = encodedData(secret);
  const missing = Object.values(SUPERUSER_SECRET_KEYS).filter((key) => data[key] === undefined);
  if (missing.length > 0) throw new SuperuserSecretInvalidError(name, `lacks the key(s) ${missing.join(', ')}`);
}

/**
 * Makes sure the superuser Secret exists with both keys; returns the action taken, if any, for the caller to record.
 * Throws SuperuserSecretInvalidError for a broken user Secret.
 */
export async function ensureSuperuserSecret(deps: Deps, workload: ZookeeperWorkload): Promise<ChildAction | undefined> {
  const { namespace, superuserSecret: name } = workloadNames(workload);
  if (workload.spec.superuserSecretRef !== undefined) {
    const existing = await readSecret(deps, namespace, name);
    if (existing === undefined) throw new SuperuserSecretInvalidError(name, 'named in spec.superuserSecretRef does not exist');
    checkKeys(existing, name);
    return undefined;
  }
  const cached = deps.caches.secrets.get({ namespace, name });
  if (cached !== undefined) {
    checkKeys(cached, name);
    return undefined;
  }
  // Not in the cache: almost always a new workload, so create straight away instead of asking for a 404 first.
  try {
    await deps.client.request('POST', collectionPath(coreResources.secret, namespace), {
      body: buildSuperuserSecret(workload, generatePassword()),
    });
  } catch (error) {
    // There already (another replica, or a cache behind the API): the existing one wins, never overwritten.
    if (isApiError(error, 409)) {
      const existing = await readSecret(deps, namespace, name);
      if (existing !== undefined) checkKeys(existing, name);
      return undefined;
    }
    throw error;
  }
  return { verb: 'Created', kind: 'Secret', name, note: `Created Secret ${name} (generated superuser password)` };
}
