// What the reconcile reads of the cluster, from the caches (pure: no client here): the workload the znode names (in its
// own namespace or another), whether that workload admits the znode's namespace, its member pods, and the other
// znodes' claims on the workload's paths.
import {
  myidOfPod,
  SASL_REVISION_ANNOTATION,
  statefulSetNameOf,
  workloadOfLabels,
  zookeeperWorkloadSchema,
  zookeeperZnodeSchema,
  znodeWorkloadKey,
  type ZookeeperWorkload,
  type ZookeeperZnode,
} from '@zk-oam/apis';
import { keyOf, parseShape, type KubeObject, type Lister, type ObjectKey } from '@zk-oam/runtime';
import { z } from 'zod';
import { admission, znodePath, type Admission, type PathClaim, type WorkloadPresence } from '../plan/index.js';
import type { ZnodeCaches } from './dependencies.js';

/** A member pod as the znode controller reads it. */
export interface MemberView {
  readonly pod: string;
  readonly myid: number;
  readonly ip: string | undefined;
  readonly ready: boolean;
  /** The JAAS Secret revision the member started with (SASL_REVISION_ANNOTATION). */
  readonly saslRevision: string | undefined;
}

export type WorkloadView =
  | { readonly presence: 'present'; readonly workload: ZookeeperWorkload; readonly members: readonly MemberView[]; readonly admission: Admission }
  | { readonly presence: Exclude<WorkloadPresence, 'present'>; readonly message: string };

const podSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string(), annotations: z.record(z.string(), z.string()).optional(), deletionTimestamp: z.string().optional() }),
  status: z
    .looseObject({ podIP: z.string().optional(), conditions: z.array(z.looseObject({ type: z.string(), status: z.string() })).optional() })
    .optional(),
});

export function observeWorkload(caches: Pick<ZnodeCaches, 'workloads' | 'pods' | 'namespaces'>, znode: ZookeeperZnode): WorkloadView {
  const { namespace, name } = znodeWorkloadKey(znode);
  const raw = caches.workloads.get({ namespace, name });
  if (raw === undefined) return { presence: 'missing', message: `ZookeeperWorkload ${name} does not exist in namespace ${namespace}` };
  if (raw.metadata.deletionTimestamp !== undefined) return { presence: 'deleting', message: `ZookeeperWorkload ${name} is being deleted` };
  const parsed = zookeeperWorkloadSchema.safeParse(raw);
  if (!parsed.success) return { presence: 'invalid', message: `ZookeeperWorkload ${name} does not validate: ${parsed.error.message}` };
  const workload = parsed.data;
  return { presence: 'present', workload, members: memberViews(caches.pods.list({ namespace }), name), admission: admissionOf(caches, workload, znode.metadata.namespace ?? '') };
}

/** Whether `workload` admits znodes of `znodeNamespace`, by that namespace's labels as cached. */
function admissionOf(caches: Pick<ZnodeCaches, 'namespaces'>, workload: ZookeeperWorkload | undefined, znodeNamespace: string): Admission {
  if (workload === undefined) return { admitted: false, message: 'the workload is not there' };
  const cached = caches.namespaces.get({ namespace: '', name: znodeNamespace });
  return admission({
    workload: { namespace: workload.metadata.namespace ?? '', name: workload.metadata.name, namespaceSelector: workload.spec.znodes?.namespaceSelector },
    znodeNamespace,
    namespaceLabels: cached === undefined ? undefined : (cached.metadata.labels ?? {}),
  });
}

function memberViews(pods: readonly KubeObject[], workload: string): MemberView[] {
  const statefulSet = statefulSetNameOf(workload);
  return pods.flatMap((object) => {
    if (workloadOfLabels(object.metadata.labels) !== workload || object.metadata.deletionTimestamp !== undefined) return [];
    const myid = myidOfPod(object.metadata.name, statefulSet);
    if (myid === undefined) return [];
    const { metadata, status } = parseShape(podSchema, object, 'Pod', object.metadata.name);
    const ip = status?.podIP === undefined || status.podIP === '' ? undefined : status.podIP;
    const ready = status?.conditions?.some((condition) => condition.type === 'Ready' && condition.status === 'True') ?? false;
    return [{ pod: metadata.name, myid, ip, ready, saslRevision: metadata.annotations?.[SASL_REVISION_ANNOTATION] }];
  });
}

/** A znode's claim on its path; whether it is served, then its creation time and uid, order it among the others. */
export function claimOf(znode: Pick<ZookeeperZnode, 'metadata' | 'spec' | 'status'>): PathClaim {
  const { name, uid = '', creationTimestamp = '' } = znode.metadata;
  const path = znodePath(znode.spec, uid);
  return { name, uid, path, createdAt: creationTimestamp, served: znode.status?.path === path };
}

/**
 * The claims of the other znodes naming the same workload, from any namespace, that it admits (those that validate: an
 * invalid one claims nothing, and neither does one the workload does not admit). `workload` is undefined when it is
 * not there to say whom it admits: then only its own namespace's znodes claim.
 */
export function otherClaims(caches: Pick<ZnodeCaches, 'traits' | 'namespaces'>, znode: ZookeeperZnode, workload: ZookeeperWorkload | undefined): PathClaim[] {
  const target = znodeWorkloadKey(znode);
  return znodesOfWorkload(caches.traits, target)
    .filter((other) => other.metadata.uid !== znode.metadata.uid)
    .flatMap((other) => {
      const parsed = zookeeperZnodeSchema.safeParse(other);
      if (!parsed.success) return [];
      const otherNamespace = parsed.data.metadata.namespace ?? '';
      const admitted = otherNamespace === target.namespace || admissionOf(caches, workload, otherNamespace).admitted;
      return admitted ? [claimOf(parsed.data)] : [];
    });
}

const looseWorkloadRef = z.looseObject({
  metadata: z.looseObject({ namespace: z.string().optional() }),
  spec: z.looseObject({ workloadRef: z.looseObject({ name: z.string(), namespace: z.string().optional() }) }),
});

/**
 * The znodes, of any namespace, whose spec.workloadRef names `workload`: read loosely, so that a znode whose spec does
 * not validate still wakes up (and reports itself) when its workload changes.
 */
export function znodesOfWorkload(znodes: Lister<KubeObject>, workload: ObjectKey): KubeObject[] {
  return znodes.list().filter((raw) => {
    const parsed = looseWorkloadRef.safeParse(raw).data;
    if (parsed === undefined) return false;
    const { name, namespace = parsed.metadata.namespace ?? '' } = parsed.spec.workloadRef;
    return name === workload.name && namespace === workload.namespace;
  });
}

/** The keys of the znodes naming `workload`: what a change to the workload, or to one of its pods, wakes. */
export function znodeKeysOfWorkload(znodes: Lister<KubeObject>, workload: ObjectKey): ObjectKey[] {
  return znodesOfWorkload(znodes, workload).map(keyOf);
}
