// Provisions hostPath PVs for claims of the bed's StorageClass, and deletes directory and PV once a claim is gone.
import { CoreV1Api, type KubeConfig, type V1PersistentVolume, type V1PersistentVolumeClaim } from '@kubernetes/client-node';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { pause } from '@zk-oam/runtime';
import { isConflict, isNotFound } from './api-errors.js';

export const storageClassName = 'bed-local';
export const provisionerName = 'bed.zkoam.dev/local';
const provisionedByAnnotation = 'pv.kubernetes.io/provisioned-by';
const pollMs = 2_000;

/** The PV for a claim: named after the claim's uid, pre-bound through claimRef so the PV controller binds it. */
export function renderVolume(claim: V1PersistentVolumeClaim, volumesDir: string): V1PersistentVolume {
  const uid = claim.metadata?.uid ?? '';
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: `pvc-${uid}`, annotations: { [provisionedByAnnotation]: provisionerName } },
    spec: {
      capacity: { storage: claim.spec?.resources?.requests?.['storage'] ?? '1Gi' },
      accessModes: claim.spec?.accessModes ?? ['ReadWriteOnce'],
      persistentVolumeReclaimPolicy: 'Delete',
      storageClassName,
      volumeMode: 'Filesystem',
      hostPath: { path: join(volumesDir, uid), type: 'DirectoryOrCreate' },
      claimRef: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: claim.metadata?.namespace, name: claim.metadata?.name, uid },
    },
  };
}

/** Polls claims and volumes (level-based, so a missed event cannot leave a claim pending) until the signal aborts. */
export async function runProvisioner(kubeConfig: KubeConfig, volumesDir: string, log: Logger, signal: AbortSignal): Promise<void> {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  while (!signal.aborted) {
    try {
      const [claims, volumes] = await Promise.all([core.listPersistentVolumeClaimForAllNamespaces(), core.listPersistentVolume()]);
      const ours = volumes.items.filter((volume) => volume.metadata?.annotations?.[provisionedByAnnotation] === provisionerName);
      const volumeNames = new Set(ours.map((volume) => volume.metadata?.name));
      for (const claim of claims.items) {
        if (needsVolume(claim) && !volumeNames.has(`pvc-${claim.metadata?.uid ?? ''}`)) {
          await provision(core, claim, volumesDir, log);
        }
      }
      for (const volume of ours) {
        if (volume.status?.phase === 'Released' && volume.metadata?.deletionTimestamp === undefined) {
          await reclaim(core, volume, volumesDir, log);
        }
      }
    } catch (error) {
      log.error({ err: error }, 'provisioning pass failed; retrying');
    }
    await pause(pollMs, signal);
  }
}

function needsVolume(claim: V1PersistentVolumeClaim): boolean {
  return claim.spec?.storageClassName === storageClassName && !claim.spec.volumeName && claim.metadata?.deletionTimestamp === undefined;
}

async function provision(core: CoreV1Api, claim: V1PersistentVolumeClaim, volumesDir: string, log: Logger): Promise<void> {
  const volume = renderVolume(claim, volumesDir);
  const claimLog = log.child({ claim: `${claim.metadata?.namespace}/${claim.metadata?.name}`, volume: volume.metadata?.name });
  await mkdir(volume.spec?.hostPath?.path ?? volumesDir, { recursive: true });
  try {
    await core.createPersistentVolume({ body: volume });
    claimLog.info('provisioned volume');
  } catch (error) {
    if (!isConflict(error)) {
      throw error;
    }
  }
}

/** Removes the directory first: a PV that is gone while its directory stays would leak data into the next claim. */
async function reclaim(core: CoreV1Api, volume: V1PersistentVolume, volumesDir: string, log: Logger): Promise<void> {
  const name = volume.metadata?.name ?? '';
  const path = volume.spec?.hostPath?.path;
  const volumeLog = log.child({ volume: name, path });
  if (path !== undefined && path.startsWith(`${volumesDir}/`)) {
    await rm(path, { recursive: true, force: true });
  } else {
    volumeLog.warn('released volume is outside the bed volumes directory; deleting the PV only');
  }
  try {
    await core.deletePersistentVolume({ name });
    volumeLog.info('released volume reclaimed: directory and PV deleted');
  } catch (error) {
    if (!isNotFound(error)) {
      throw error;
    }
  }
}
