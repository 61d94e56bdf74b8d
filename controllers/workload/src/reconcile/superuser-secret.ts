// Step 2: the superuser Secret. The user's (spec.superuserSecretRef) is checked; otherwise `<name>-superuser` is
// generated once with a random password and from then on used as it is, never rotated silently.
import { randomBytes } from 'node:crypto';
import { SUPERUSER_SECRET_KEYS, type ZookeeperWorkload } from '@zk-oam/apis';
import { coreResources, isApiError, objectPath, collectionPath, type KubeObject } from '@zk-oam/runtime';
import { z } from 'zod';
import { buildSuperuserSecret } from '../render/superuser-secret.js';
import { workloadNames } from '../render/identity.js';
import type { WorkloadReconcilerDependencies } from './dependencies.js';
import { SuperuserSecretInvalidError } from './errors.js';

const secretDataSchema = z.looseObject({ data: z.record(z.string(), z.string()).optional() });

type Deps = Pick<WorkloadReconcilerDependencies, 'client' | 'caches' | 'recorder'>;

/** 32 bytes of entropy, printable without quoting. */
export function generatePassword(): string {
  return randomBytes(32).toString('base64url');
}

async function readSecret(deps: Deps, namespace: string, name: string): Promise<unknown> {
  const cached = deps.caches.secrets.get({ namespace, name });
  if (cached !== undefined) return cached;
  try {
    return await deps.client.request('GET', objectPath(coreResources.secret, { namespace, name }));
  } catch (error) {
    if (isApiError(error, 404)) return undefined;
    throw error;
  }
}

function checkKeys(secret: unknown, name: string): void {
  const data = secretDataSchema.safeParse(secret).data?.data ?? {};
  const missing = Object.values(SUPERUSER_SECRET_KEYS).filter((key) => data[key] === undefined);
  if (missing.length > 0) throw new SuperuserSecretInvalidError(name, `lacks the key(s) ${missing.join(', ')}`);
}

/** Returns the Secret's name once it exists with both keys; throws SuperuserSecretInvalidError for a broken user Secret. */
export async function ensureSuperuserSecret(deps: Deps, workload: ZookeeperWorkload, raw: KubeObject): Promise<string> {
  const { namespace, superuserSecret: name } = workloadNames(workload);
  const existing = await readSecret(deps, namespace, name);
  if (workload.spec.superuserSecretRef !== undefined) {
    if (existing === undefined) throw new SuperuserSecretInvalidError(name, 'named in spec.superuserSecretRef does not exist');
    checkKeys(existing, name);
    return name;
  }
  if (existing !== undefined) {
    checkKeys(existing, name);
    return name;
  }
  try {
    await deps.client.request('POST', collectionPath(coreResources.secret, namespace), {
      body: buildSuperuserSecret(workload, generatePassword()),
    });
  } catch (error) {
    // Created meanwhile (another replica, or a cache behind the API): the existing one wins, never overwritten.
    if (isApiError(error, 409)) return name;
    throw error;
  }
  await deps.recorder.record(raw, { type: 'Normal', reason: 'Created', action: 'Create', note: `Created Secret ${name} (generated superuser password)` });
  return name;
}
