// Kubeconfigs for ServiceAccounts: a TokenRequest made as admin, written with the bed's CA, so controllers
// run as local processes with exactly the RBAC granted to their ServiceAccount.
import { CoreV1Api } from '@kubernetes/client-node';
import { BedSetupError } from './errors.js';
import { writeKubeconfig } from './kubeconfig.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

/** Tokens outlive any test run; the apiserver caps nothing below this on the bed. */
const tokenLifetimeSeconds = 24 * 60 * 60;

/** A bearer token of the ServiceAccount `namespace/name`, by a TokenRequest made as admin. */
export async function serviceAccountBearerToken(admin: PooledKubeConfig, namespace: string, name: string, lifetimeSeconds = tokenLifetimeSeconds): Promise<string> {
  const token = await admin
    .makeApiClient(CoreV1Api)
    .createNamespacedServiceAccountToken({ namespace, name, body: { spec: { audiences: [], expirationSeconds: lifetimeSeconds } } })
    .catch((error: unknown) => {
      throw new BedSetupError(`requesting a token for ServiceAccount ${namespace}/${name}`, { cause: error });
    });
  const value = token.status?.token;
  if (!value) throw new BedSetupError(`reading the token issued for ServiceAccount ${namespace}/${name}`);
  return value;
}

export async function serviceAccountKubeconfig(
  adminKubeconfig: string,
  namespace: string,
  name: string,
  outFile: string,
): Promise<string> {
  const admin = new PooledKubeConfig();
  admin.loadFromFile(adminKubeconfig);
  const cluster = admin.getCurrentCluster();
  if (!cluster?.caData) throw new BedSetupError(`reading the cluster and its CA from ${adminKubeconfig}`);
  const value = await serviceAccountBearerToken(admin, namespace, name);
  return writeKubeconfig(outFile, {
    server: cluster.server,
    caPem: Buffer.from(cluster.caData, 'base64').toString('utf8'),
    user: `system:serviceaccount:${namespace}:${name}`,
    credentials: { kind: 'token', token: value },
    namespace,
  });
}
