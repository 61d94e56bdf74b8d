// After the TLS certificates, only when spec.authentication uses SASL: the users Secret is read (from the API: it is the
// user's) and checked, and the members' JAAS file rendered into `<name>-sasl`, which the workload owns. Once SASL is
// turned off that Secret stays until the workload goes: a member still on the previous pod template (OnDelete, waiting
// for the rolling trait) that restarts must find it. Passwords stay in the Secrets: notes, logs and errors name Secrets,
// keys and reasons only.
import type { ZookeeperWorkload } from '@zk-oam/apis';
import { applyObject, coreResources, type KubeClient } from '@zk-oam/runtime';
import { z } from 'zod';
import { workloadNames } from '../render/identity.js';
import { buildSaslSecret } from '../sasl/jaas-secret.js';
import { readSaslUsers } from '../sasl/users.js';
import type { ChildAction } from './apply-children.js';
import type { WorkloadReconcilerDependencies } from './dependencies.js';
import { AuthenticationSecretInvalidError } from './errors.js';
import { IDENTITY } from './resources.js';
import { encodedData, readSecret } from './secrets.js';

type Deps = Pick<WorkloadReconcilerDependencies, 'caches'> & { readonly client: Pick<KubeClient, 'request'> };

export interface SaslOutcome {
  /** The JAAS Secret's resourceVersion: it changes exactly when its content does, and goes on the pod template. */
  readonly revision: string | undefined;
  readonly actions: ChildAction[];
}

const resourceVersionSchema = z.looseObject({ metadata: z.looseObject({ resourceVersion: z.string() }) });

export async function ensureSaslUsers(deps: Deps, workload: ZookeeperWorkload): Promise<SaslOutcome> {
  const sasl = workload.spec.authentication?.sasl;
  if (sasl === undefined) return { revision: undefined, actions: [] };
  const { namespace, saslSecret } = workloadNames(workload);
  const cached = deps.caches.secrets.get({ namespace, name: saslSecret });
  const usersSecretName = sasl.usersSecretRef.name;
  const usersSecret = await readSecret(deps, namespace, usersSecretName);
  if (usersSecret === undefined) throw new AuthenticationSecretInvalidError('SASL users', usersSecretName, 'named in spec.authentication.sasl.usersSecretRef does not exist');
  const users = readSaslUsers(encodedData(usersSecret));
  if (!users.ok) throw new AuthenticationSecretInvalidError('SASL users', usersSecretName, users.problem);
  const desired = buildSaslSecret(workload, users.users);
  const kept = resourceVersionSchema.safeParse(cached).data;
  if (kept !== undefined && sameData(encodedData(cached), desired.data)) return { revision: kept.metadata.resourceVersion, actions: [] };
  const applied = resourceVersionSchema.parse(await applyObject(deps.client, coreResources.secret, { ...desired, metadata: { ...desired.metadata } }, { fieldManager: IDENTITY.fieldManager }));
  const verb = cached === undefined ? 'Created' : 'Updated';
  const note = `${verb} Secret ${saslSecret} (the members' JAAS file for ${String(users.users.length)} SASL user(s) of Secret ${usersSecretName})`;
  return { revision: applied.metadata.resourceVersion, actions: [{ verb, kind: 'Secret', name: saslSecret, note }] };
}

function sameData(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
