// After the SASL users, only when spec.authentication uses x509: the client CA Secret is read (from the API: it is the
// user's) and checked the way ZooKeeper will read it. Nothing is written: the members mount its ca.crt as it is (it
// holds no key), and the digest of ca.crt goes on the pod template, so a new CA restarts them. A CA broken after a
// member started reaches that member only if it restarts on its own; the reconcile reports it and renders nothing new.
import type { ZookeeperWorkload } from '@zk-oam/apis';
import type { KubeClient } from '@zk-oam/runtime';
import { workloadNames } from '../render/identity.js';
import { readClientCa } from '../x509/client-ca.js';
import type { WorkloadReconcilerDependencies } from './dependencies.js';
import { AuthenticationSecretInvalidError } from './errors.js';
import { encodedData, readSecret } from './secrets.js';

type Deps = Pick<WorkloadReconcilerDependencies, 'caches'> & { readonly client: Pick<KubeClient, 'request'> };

/** The SHA-256 of the client CA's ca.crt; undefined without x509. */
export async function checkClientCa(deps: Deps, workload: ZookeeperWorkload): Promise<string | undefined> {
  const x509 = workload.spec.authentication?.x509;
  if (x509 === undefined) return undefined;
  const secretName = x509.clientCaSecretRef.name;
  const secret = await readSecret(deps, workloadNames(workload).namespace, secretName);
  if (secret === undefined) throw new AuthenticationSecretInvalidError('client CA', secretName, 'named in spec.authentication.x509.clientCaSecretRef does not exist');
  const reading = readClientCa(encodedData(secret));
  if (!reading.ok) throw new AuthenticationSecretInvalidError('client CA', secretName, reading.problem);
  return reading.digest;
}
