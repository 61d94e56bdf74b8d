// What the reconcile reads of the cluster, from the caches (pure: no client here): the workload the znode names and
// its member pods, and the other znodes' claims on the workload's paths.
import {
  myidOfPod,
  SASL_REVISION_ANNOTATION,
  statefulSetNameOf,
  workloadOfLabels,
  zookeeperWorkloadSchema,
  zookeeperZnodeSchema,
  type ZookeeperWorkload,
  type ZookeeperZnode,
} from '@zk-oam/apis';
import { parseShape, workloadNamedBy, type KubeObject } from '@zk-oam/runtime';
import { z } from 'zod';
import { znodePath, type PathClaim, type WorkloadPresence } from '../plan/index.js';
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
  | { readonly presence: 'present'; readonly workload: ZookeeperWorkload; readonly members: readonly MemberView[] }
  | { readonly presence: Exclude<WorkloadPresence, 'present'>; readonly message: string };

const podSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string(), annotations: z.record(z.string(), z.string()).optional(), deletionTimestamp: z.string().optional() }),
  status: z
    .looseObject({ podIP: z.string().optional(), conditions: z.array(z.looseObject({ type: z.string(), status: z.string() })).optional() })
    .optional(),
});

export function observeWorkload(caches: Pick<ZnodeCaches, 'workloads' | 'pods'>, znode: ZookeeperZnode): WorkloadView {
  const namespace = znode.metadata.namespace ?? '';
  const name = znode.spec.workloadRef.name;
  const raw = caches.workloads.get({ namespace, name });
  if (raw === undefined) return { presence: 'missing', message: `ZookeeperWorkload ${name} does not exist in namespace ${namespace}` };
  if (raw.metadata.deletionTimestamp !== undefined) return { presence: 'deleting', message: `ZookeeperWorkload ${name} is being deleted` };
  const parsed = zookeeperWorkloadSchema.safeParse(raw);
  if (!parsed.success) return { presence: 'invalid', message: `ZookeeperWorkload ${name} does not validate: ${parsed.error.message}` };
  return { presence: 'present', workload: parsed.data, members: memberViews(caches.pods.list({ namespace }), name) };
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

/** A znode's claim on its path; its uid and creation time order it among the others. */
export function claimOf(znode: Pick<ZookeeperZnode, 'metadata' | 'spec'>): PathClaim {
  const { name, uid = '', creationTimestamp = '' } = znode.metadata;
  return { name, uid, path: znodePath(znode.spec, uid), createdAt: creationTimestamp };
}

/** The claims of the other znodes naming the same workload (those that validate: an invalid one claims nothing). */
export function otherClaims(caches: Pick<ZnodeCaches, 'traits'>, znode: ZookeeperZnode): PathClaim[] {
  return caches.traits
    .list({ namespace: znode.metadata.namespace ?? '' })
    .filter((other) => other.metadata.uid !== znode.metadata.uid && workloadNamedBy(other) === znode.spec.workloadRef.name)
    .flatMap((other) => {
      const parsed = zookeeperZnodeSchema.safeParse(other);
      return parsed.success ? [claimOf(parsed.data)] : [];
    });
}
