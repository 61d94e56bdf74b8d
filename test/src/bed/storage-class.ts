// The bed's default StorageClass `bed-local`; the node agent provisions PVs for its claims.
import { ApiException, type KubeConfig, StorageV1Api, type V1StorageClass } from '@kubernetes/client-node';

export const bedStorageClass: V1StorageClass = {
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: {
    name: 'bed-local',
    annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' },
  },
  provisioner: 'bed.zkoam.dev/local',
  volumeBindingMode: 'Immediate',
  reclaimPolicy: 'Delete',
};

/** Creates the StorageClass; one that already exists is left as it is. */
export async function ensureStorageClass(kubeconfig: KubeConfig): Promise<void> {
  const storage = kubeconfig.makeApiClient(StorageV1Api);
  try {
    await storage.createStorageClass({ body: bedStorageClass });
  } catch (error) {
    if (!(error instanceof ApiException && error.code === 409)) throw error;
  }
}
