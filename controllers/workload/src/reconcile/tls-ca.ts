// The CA that signs the member certificate: the user's (spec.tls.certificates.caSecretRef), or the controller's own in
// `<name>-tls-ca`, created once and made anew when two thirds of its life are gone (the member Secret then rotates to
// it, tls/ca-rotation.ts). A missing or broken CA Secret blocks the workload with TlsCaSecretInvalid.
import { X509Certificate } from 'node:crypto';
import type { ZookeeperWorkload } from '@zk-oam/apis';
import { applyObject, collectionPath, coreResources, isApiError, type KubeClient } from '@zk-oam/runtime';
import { workloadNames } from '../render/identity.js';
import { readCa } from '../tls/ca.js';
import type { SigningCa } from '../tls/issue.js';
import { renewalTime } from '../tls/renewal.js';
import { issueCaSecretData } from '../tls/secret-data.js';
import type { ChildAction } from './apply-children.js';
import type { WorkloadReconcilerDependencies } from './dependencies.js';
import { TlsCaSecretInvalidError } from './errors.js';
import { FIELD_MANAGER } from './markers.js';
import { decodedData, encoded, readLiveSecret, secretMetadata } from './secrets.js';

type Deps = Pick<WorkloadReconcilerDependencies, 'caches' | 'now'> & { readonly client: Pick<KubeClient, 'request'> };
/** readSecret (the cache first) or readLiveSecret (the API). */
export type SecretReader = (deps: Deps, namespace: string, name: string) => Promise<unknown>;

export interface CaInUse {
  readonly ca: SigningCa;
  /** When the controller's own CA is renewed; undefined for a user's CA (the user rotates it). */
  readonly renewAt: Date | undefined;
  /** Reads it again from the API, for a decision to write: the cache may not have our own last write yet. */
  readonly live: () => Promise<SigningCa>;
}

export async function signingCa(deps: Deps, workload: ZookeeperWorkload, actions: ChildAction[], read: SecretReader): Promise<CaInUse> {
  const name = workloadNames(workload).tlsCaSecret;
  const now = deps.now();
  const reading = await readCa(await caSecretData(deps, workload, { name, read }, actions), now);
  if (!reading.ok) throw new TlsCaSecretInvalidError(name, reading.problem);
  const live = async (): Promise<SigningCa> => (read === readLiveSecret ? reading.ca : (await signingCa(deps, workload, [], readLiveSecret)).ca);
  if (workload.spec.tls.certificates?.caSecretRef !== undefined) return { ca: reading.ca, renewAt: undefined, live };
  const renewAt = renewalTime(new X509Certificate(reading.ca.certificatePem), undefined);
  if (now.getTime() < renewAt.getTime()) return { ca: reading.ca, renewAt, live };
  if (read !== readLiveSecret) return signingCa(deps, workload, actions, readLiveSecret);
  return renewOwnCa(deps, workload, name, actions);
}

/** The controller's own CA, made anew in its Secret; the member Secret then rotates to it. */
async function renewOwnCa(deps: Deps, workload: ZookeeperWorkload, name: string, actions: ChildAction[]): Promise<CaInUse> {
  const data = await newCaData(workload, deps.now());
  await applyObject(deps.client, coreResources.secret, { metadata: secretMetadata(workload, name), type: 'kubernetes.io/tls', data: encoded(data) }, { fieldManager: FIELD_MANAGER });
  actions.push({ verb: 'Updated', kind: 'Secret', name, note: `Updated Secret ${name} (a new CA: two thirds of the previous one's life were gone)` });
  const reading = await readCa(data, deps.now());
  if (!reading.ok) throw new Error(`the CA just made for Secret ${name} fails its own check: ${reading.problem}`);
  return { ca: reading.ca, renewAt: renewalTime(new X509Certificate(reading.ca.certificatePem), undefined), live: () => Promise.resolve(reading.ca) };
}

/**
 * A CA of the controller's own. Its name carries the time it was made: ZooKeeper trusts one CA per subject, and the
 * renewed CA must be trusted beside the previous one while the members rotate.
 */
function newCaData(workload: ZookeeperWorkload, now: Date): Promise<Record<string, string>> {
  const { namespace } = workloadNames(workload);
  return issueCaSecretData({ commonName: `zk-oam CA of ZookeeperWorkload ${namespace}/${workload.metadata.name} ${now.toISOString()}`, now });
}

/** The CA Secret's data: the user's, or the controller's own, created once (another writer that was first wins). */
async function caSecretData(deps: Deps, workload: ZookeeperWorkload, secret: { name: string; read: SecretReader }, actions: ChildAction[]): Promise<Record<string, string>> {
  const { name, read } = secret;
  const { namespace } = workloadNames(workload);
  const existing = await read(deps, namespace, name);
  if (existing !== undefined) return decodedData(existing);
  if (workload.spec.tls.certificates?.caSecretRef !== undefined) {
    throw new TlsCaSecretInvalidError(name, 'named in spec.tls.certificates.caSecretRef does not exist');
  }
  const data = await newCaData(workload, deps.now());
  try {
    await deps.client.request('POST', collectionPath(coreResources.secret, namespace), {
      body: { apiVersion: 'v1', kind: 'Secret', metadata: secretMetadata(workload, name), type: 'kubernetes.io/tls', data: encoded(data) },
    });
  } catch (error) {
    const raced = isApiError(error, 409) ? await readLiveSecret(deps, namespace, name) : undefined;
    if (raced === undefined) throw error;
    return decodedData(raced);
  }
  actions.push({ verb: 'Created', kind: 'Secret', name, note: `Created Secret ${name} (a new CA for the members' certificate)` });
  return data;
}
