// A PersistentVolumeClaim target's store, for the backup controller that writes to it (one per run) and the workload
// controller's restore that reads from it (one per attempt): a Job mounting the claim runs the volume server
// (render/volume-job.ts) with the digest of a token made for this use alone; the store is its client once the pod is
// ready, and releasing it deletes the Job. Jobs the same owner left (a controller stopped midway) are deleted first:
// their token is lost with that process. A server that never gets ready (a claim that cannot be mounted, a pod that
// failed) is an ObjectStoreError, as a store that does not answer is.
import type { PvcTarget } from '@zk-oam/apis';
import { collectionPath, coreResources, objectPath, retryWithBackoff, type KubeClient, type ReconcileContext, type ResourceType } from '@zk-oam/runtime';
import { z } from 'zod';
import { pvcLocation, renderVolumeJob, type VolumeJobOwner } from '../render/volume-job.js';
import { newVolumeToken, tokenDigest, VOLUME_SERVER_PORT } from '../volume/protocol.js';
import { ObjectStoreError, type ObjectStore } from './object-store.js';
import { STORE_REQUEST_TIMEOUT_MS } from './open-s3-target.js';
import { volumeStore } from './volume.js';

/** The volume server's Job, and the Job's pod, read by label. */
export const jobResource: ResourceType = { group: 'batch', version: 'v1', plural: 'jobs', kind: 'Job', namespaced: true };

/**
 * The backup image (as the cluster pulls it), whose volume server the Job runs: the setting BACKUP_IMAGE of the backup
 * controller and of the workload controller (for restores). The Deployments name it beside their own image.
 */
export const backupImageSetting = z.string().min(1).default('ghcr.io/zk-oam/backup:0.1.0');

/** Looks at the volume server's pod until it is ready: about three minutes (an image to pull, a volume to attach). */
const READY_ATTEMPTS = 40;

export interface TargetStore {
  readonly store: ObjectStore;
  /** Closes the store and frees what it held (the volume server's Job). */
  release(): Promise<void>;
}

export interface PvcTargetRequest {
  readonly owner: VolumeJobOwner;
  /** The Job's name (volumeJobName): unique to this use, so that a pod of an earlier Job is never taken for its. */
  readonly jobName: string;
  readonly pvc: PvcTarget;
  /** The backup image, whose volume server the Job runs. */
  readonly image: string;
}

type JobClient = Pick<KubeClient, 'request'>;

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

async function deleteJobs(client: JobClient, namespace: string, names: readonly string[]): Promise<void> {
  for (const name of names) {
    await client.request('DELETE', objectPath(jobResource, { namespace, name }), { body: { propagationPolicy: 'Background' } }).catch((error: unknown) => {
      if (!(error instanceof Error && 'code' in error && error.code === 404)) throw error;
    });
  }
}

/** The ready volume server's address: the Job's pod's IP once it is ready; a pod that failed ends the wait. */
async function readyServer(client: JobClient, namespace: string, job: string): Promise<string> {
  return retryWithBackoff(
    async () => {
      const pods = podListSchema.parse(await client.request('GET', collectionPath(coreResources.pod, namespace), { query: { labelSelector: `job-name=${job}` } }));
      const pod = pods.items[0];
      if (pod?.status?.phase === 'Failed') throw new Error(`the volume server's pod of Job ${job} failed`);
      const ready = pod?.status?.conditions?.some((condition) => condition.type === 'Ready' && condition.status === 'True') === true;
      if (!ready || pod?.status?.podIP === undefined) throw new VolumeServerNotReady(`the volume server's pod of Job ${job} is not ready`);
      return pod.status.podIP;
    },
    { attempts: READY_ATTEMPTS, backoff: { baseMs: 500, maxMs: 5_000, jitter: 0.2 }, retryable: (error) => error instanceof VolumeServerNotReady },
  );
}

export async function openPvcTarget(client: JobClient, request: PvcTargetRequest, log: ReconcileContext['log']): Promise<TargetStore> {
  const { owner, jobName: job, pvc } = request;
  const leftover = listSchema.parse(await client.request('GET', collectionPath(jobResource, owner.namespace), { query: { labelSelector: `${owner.label}=${owner.name}` } }));
  await deleteJobs(client, owner.namespace, leftover.items.map((item) => item.metadata.name));
  const token = newVolumeToken();
  await client.request('POST', collectionPath(jobResource, owner.namespace), { body: renderVolumeJob({ owner, name: job, pvc, image: request.image, tokenSha256: tokenDigest(token) }) });
  // A Job that cannot be deleted now is deleted by the next use, or ends at its deadline.
  const release = (): Promise<void> => deleteJobs(client, owner.namespace, [job]).catch((error: unknown) => log.warn({ err: error, job }, 'the volume server’s Job was not deleted'));
  try {
    const ip = await readyServer(client, owner.namespace, job).catch((error: unknown) => {
      throw new ObjectStoreError('serve', pvcLocation(pvc), { cause: error });
    });
    log.info({ job, ip, claim: pvc.claimName }, 'the volume server is ready');
    const host = ip.includes(':') ? `[${ip}]` : ip;
    const store = volumeStore({ url: `http://${host}:${String(VOLUME_SERVER_PORT)}`, token, location: pvcLocation(pvc), requestTimeoutMs: STORE_REQUEST_TIMEOUT_MS });
    return { store, release };
  } catch (error) {
    await release();
    throw error;
  }
}
