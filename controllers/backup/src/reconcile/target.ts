// The target's store for a run. S3: its credentials and CA read from the Secrets the target names (never cached, never
// logged), then the S3 client. A PersistentVolumeClaim: a Job mounting it runs the volume server (render/volume-job.ts)
// with the digest of a token made for this run alone; the store is its client once the pod is ready, and releasing it
// deletes the Job. Jobs an earlier run left (a controller stopped mid-run) are deleted first: their token is lost with
// that run.
import { targetKind, type PvcTarget, type ZookeeperBackup } from '@zk-oam/apis';
import { collectionPath, objectPath, retryWithBackoff, type ReconcileContext } from '@zk-oam/runtime';
import { z } from 'zod';
import { BACKUP_LABEL, pvcLocation, renderVolumeJob, volumeJobName } from '../render/volume-job.js';
import type { ObjectStore } from '../store/object-store.js';
import { openS3Target, STORE_REQUEST_TIMEOUT_MS } from '../store/open-s3-target.js';
import { volumeStore } from '../store/volume.js';
import { newVolumeToken, tokenDigest, VOLUME_SERVER_PORT } from '../volume/protocol.js';
import type { BackupReconcilerDependencies } from './dependencies.js';
import { jobResource, podResource } from './resources.js';

/** Looks at the volume server's pod until it is ready: about three minutes (an image to pull, a volume to attach). */
const READY_ATTEMPTS = 40;

export interface TargetStore {
  readonly store: ObjectStore;
  /** Closes the store and frees what it held (the volume server's Job). */
  release(): Promise<void>;
}

type TargetDependencies = Pick<BackupReconcilerDependencies, 'client' | 'openStore' | 'volumeImage'>;

export async function openTargetStore(deps: TargetDependencies, backup: ZookeeperBackup, runId: string, log: ReconcileContext['log']): Promise<TargetStore> {
  const target = targetKind(backup.spec.target);
  if (target.kind === 's3') {
    const store = await openS3Target(deps.client, backup.metadata.namespace ?? '', target.s3, deps.openStore);
    return { store, release: () => Promise.resolve(store.close()) };
  }
  return pvcTargetStore(deps, backup, runId, target.pvc, log);
}

const listSchema = z.object({ items: z.array(z.looseObject({ metadata: z.looseObject({ name: z.string() }) })) });
const podListSchema = z.object({
  items: z.array(
    z.looseObject({
      status: z.looseObject({ podIP: z.string().optional(), phase: z.string().optional(), conditions: z.array(z.looseObject({ type: z.string(), status: z.string() })).optional() }).optional(),
    }),
  ),
});

class VolumeServerNotReady extends Error {
  override readonly name = 'VolumeServerNotReady';
}

async function deleteJobs(deps: TargetDependencies, namespace: string, names: readonly string[]): Promise<void> {
  for (const name of names) {
    await deps.client.request('DELETE', objectPath(jobResource, { namespace, name }), { body: { propagationPolicy: 'Background' } }).catch((error: unknown) => {
      if (!(error instanceof Error && 'code' in error && error.code === 404)) throw error;
    });
  }
}

/** The ready volume server's address: the Job's pod's IP once it is ready; a pod that failed ends the wait. */
async function readyServer(deps: TargetDependencies, namespace: string, job: string): Promise<string> {
  return retryWithBackoff(
    async () => {
      const pods = podListSchema.parse(await deps.client.request('GET', collectionPath(podResource, namespace), { query: { labelSelector: `job-name=${job}` } }));
      const pod = pods.items[0];
      if (pod?.status?.phase === 'Failed') throw new Error(`the volume server's pod of Job ${job} failed`);
      const ready = pod?.status?.conditions?.some((condition) => condition.type === 'Ready' && condition.status === 'True') === true;
      if (!ready || pod?.status?.podIP === undefined) throw new VolumeServerNotReady(`the volume server's pod of Job ${job} is not ready`);
      return pod.status.podIP;
    },
    { attempts: READY_ATTEMPTS, backoff: { baseMs: 500, maxMs: 5_000, jitter: 0.2 }, retryable: (error) => error instanceof VolumeServerNotReady },
  );
}

async function pvcTargetStore(deps: TargetDependencies, backup: ZookeeperBackup, runId: string, pvc: PvcTarget, log: ReconcileContext['log']): Promise<TargetStore> {
  const namespace = backup.metadata.namespace ?? '';
  const leftover = listSchema.parse(await deps.client.request('GET', collectionPath(jobResource, namespace), { query: { labelSelector: `${BACKUP_LABEL}=${backup.metadata.name}` } }));
  await deleteJobs(deps, namespace, leftover.items.map((job) => job.metadata.name));
  const token = newVolumeToken();
  const job = volumeJobName(backup, runId);
  await deps.client.request('POST', collectionPath(jobResource, namespace), { body: renderVolumeJob({ backup, runId, pvc, image: deps.volumeImage, tokenSha256: tokenDigest(token) }) });
  // A Job that cannot be deleted now is deleted by the next run, or ends at its deadline.
  const release = (): Promise<void> => deleteJobs(deps, namespace, [job]).catch((error: unknown) => log.warn({ err: error, job }, 'the volume server’s Job was not deleted'));
  try {
    const ip = await readyServer(deps, namespace, job);
    log.info({ job, ip, claim: pvc.claimName }, 'the volume server is ready');
    const host = ip.includes(':') ? `[${ip}]` : ip;
    const store = volumeStore({ url: `http://${host}:${String(VOLUME_SERVER_PORT)}`, token, location: pvcLocation(pvc), requestTimeoutMs: STORE_REQUEST_TIMEOUT_MS });
    return { store, release };
  } catch (error) {
    await release();
    throw error;
  }
}
