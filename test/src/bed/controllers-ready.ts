// Waits until kube-controller-manager has really started its controllers, not just its health endpoint:
// the ServiceAccount controller has made `default/default`, which ServiceAccount admission needs for pods.
import { ApiException, CoreV1Api } from '@kubernetes/client-node';
import { waitFor } from '../wait-for.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

export async function waitForDefaultServiceAccount(kubeconfigFile: string, timeoutMs: number): Promise<void> {
  const kubeconfig = new PooledKubeConfig();
  kubeconfig.loadFromFile(kubeconfigFile);
  const core = kubeconfig.makeApiClient(CoreV1Api);
  await waitFor(
    'the default ServiceAccount (made by kube-controller-manager)',
    async () => {
      try {
        await core.readNamespacedServiceAccount({ namespace: 'default', name: 'default' });
        return true;
      } catch (error) {
        if (error instanceof ApiException && error.code === 404) return false;
        throw error;
      }
    },
    Boolean,
    timeoutMs,
  );
}
