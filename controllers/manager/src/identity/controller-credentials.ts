// Whom each controller in the manager acts as. By default the process' identity (its kubeconfig, or the pod's
// ServiceAccount), which must then hold the union of the controllers' RBAC. With CONTROLLER_SERVICE_ACCOUNT_PREFIX, a
// ServiceAccount of its own (`<prefix><controller>`, the one its separate Deployment runs as): the manager asks for
// that account's token (TokenRequest), keeps it in a file of its own and renewed, and the controller's KubeConfig reads
// it. Each controller then holds only its own RBAC, and the apiserver's audit log names it; the manager's account needs
// only `create` on those accounts' `serviceaccounts/token`.
import { join } from 'node:path';
import { KubeClient, loadKubeConfig, PooledKubeConfig, type Logger, type ProcessEnv } from '@zk-oam/runtime';
import { ServiceAccountTokenFile } from './service-account-token.js';

export type ControllerIdentity =
  | { readonly kind: 'process' }
  | { readonly kind: 'own-service-account'; readonly prefix: string; readonly namespace: string; readonly tokenDir: string };

/** The credentials controller `name` acts with at a start: undefined for the process' own. */
export type ControllerCredentials = (name: string) => Promise<PooledKubeConfig | undefined>;

export interface CredentialsOptions {
  /** Where the process' own identity comes from. */
  readonly env: Pick<ProcessEnv, 'KUBECONFIG' | 'KUBERNETES_SERVICE_HOST' | 'KUBERNETES_SERVICE_PORT' | 'SERVICE_ACCOUNT_DIR'>;
  readonly log: Logger;
  /** Token renewals stop when it aborts. */
  readonly signal: AbortSignal;
}

export function controllerCredentials(identity: ControllerIdentity, options: CredentialsOptions): ControllerCredentials {
  if (identity.kind === 'process') return () => Promise.resolve(undefined);
  const processConfig = loadKubeConfig(options.env);
  const cluster = processConfig.getCurrentCluster();
  if (cluster === null) throw new Error('the process kubeconfig names no cluster: no ServiceAccount of a controller can reach it');
  const client = new KubeClient(processConfig);
  const tokens = new Map<string, ServiceAccountTokenFile>();
  return async (name) => {
    const account = { namespace: identity.namespace, name: `${identity.prefix}${name}` };
    const file = join(identity.tokenDir, name);
    const token = tokens.get(name) ?? new ServiceAccountTokenFile({ client, account, file, log: options.log, signal: options.signal });
    tokens.set(name, token);
    await token.ready();
    const kubeConfig = new PooledKubeConfig();
    kubeConfig.loadFromClusterAndUser(cluster, {
      name: `system:serviceaccount:${account.namespace}:${account.name}`,
      authProvider: { name: 'tokenFile', config: { tokenFile: file } },
    });
    return kubeConfig;
  };
}
