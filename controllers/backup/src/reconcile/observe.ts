// What the reconcile reads of the cluster, from the caches (pure: no client here): the workload the backup names and
// the members a dump's session may go to, followers first so that the walk's reads stay off the leader (the workload's
// status says who leads; a member it does not list comes last).
import { myidOfPod, statefulSetNameOf, workloadOfLabels, zookeeperWorkloadSchema, type ZookeeperBackup, type ZookeeperWorkload } from '@zk-oam/apis';
import { parseShape, type KubeObject } from '@zk-oam/runtime';
import type { AdminTarget } from '@zk-oam/zookeeper';
import { z } from 'zod';
import type { BackupCaches } from './dependencies.js';

export type WorkloadView =
  | { readonly presence: 'present'; readonly workload: ZookeeperWorkload; readonly targets: readonly AdminTarget[] }
  | { readonly presence: 'missing' | 'deleting' | 'invalid'; readonly message: string };

const podSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string(), deletionTimestamp: z.string().optional() }),
  status: z.looseObject({ podIP: z.string().optional(), conditions: z.array(z.looseObject({ type: z.string(), status: z.string() })).optional() }).optional(),
});

const ROLE_ORDER = { follower: 0, observer: 1, unknown: 2, leader: 3 } as const;

export function observeWorkload(caches: Pick<BackupCaches, 'workloads' | 'pods'>, backup: ZookeeperBackup): WorkloadView {
  const namespace = backup.metadata.namespace ?? '';
  const name = backup.spec.workloadRef.name;
  const raw = caches.workloads.get({ namespace, name });
  if (raw === undefined) return { presence: 'missing', message: `ZookeeperWorkload ${name} does not exist in namespace ${namespace}` };
  if (raw.metadata.deletionTimestamp !== undefined) return { presence: 'deleting', message: `ZookeeperWorkload ${name} is being deleted` };
  const parsed = zookeeperWorkloadSchema.safeParse(raw);
  if (!parsed.success) return { presence: 'invalid', message: `ZookeeperWorkload ${name} does not validate: ${parsed.error.message}` };
  return { presence: 'present', workload: parsed.data, targets: readyMembers(parsed.data, caches.pods.list({ namespace })) };
}

function readyMembers(workload: ZookeeperWorkload, pods: readonly KubeObject[]): AdminTarget[] {
  const name = workload.metadata.name;
  const statefulSet = statefulSetNameOf(name);
  const roles = new Map((workload.status?.members ?? []).map((member) => [member.pod, member.role]));
  const rank = (pod: string): number => ROLE_ORDER[roles.get(pod) ?? 'unknown'];
  return pods
    .flatMap((object): AdminTarget[] => {
      if (workloadOfLabels(object.metadata.labels) !== name) return [];
      const myid = myidOfPod(object.metadata.name, statefulSet);
      const { metadata, status } = parseShape(podSchema, object, 'Pod', object.metadata.name);
      const ready = status?.conditions?.some((condition) => condition.type === 'Ready' && condition.status === 'True') ?? false;
      const ip = status?.podIP ?? '';
      return myid === undefined || !ready || ip === '' || metadata.deletionTimestamp !== undefined ? [] : [{ pod: metadata.name, myid, ip }];
    })
    .sort((a, b) => rank(a.pod) - rank(b.pod) || a.myid - b.myid);
}
