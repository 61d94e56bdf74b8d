// Narrow views of children read from the informer caches, parsed once per cached version (keptParse: a burst reconciles
// a workload once per event of each of its children) and shaped as the client-node types the observer takes. Only the
// fields the reconcile reads are kept. A view is shared between reconciles: its readers never change it.
import type { V1Pod, V1StatefulSet, V1StatefulSetStatus } from '@kubernetes/client-node';
import { MEMBER_POD_FIELDS, memberSelectorLabels, myidOfPod, STATEFUL_SET_FIELDS, statefulSetNameOf, type ZookeeperWorkload } from '@zk-oam/apis';
import { keepFields, keptParse, type KeptFields, type KubeObject, type Lister } from '@zk-oam/runtime';
import type { MemberPod } from '@zk-oam/zookeeper';
import { z } from 'zod';
import { CONFIG_FILES } from '../render/layout.js';

const labelsSchema = z.record(z.string(), z.string()).optional();

const count = z.int().optional();

const statefulSetViewSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string(), generation: count, annotations: labelsSchema }),
  spec: z.looseObject({
    replicas: z.int().optional(),
    selector: z.looseObject({ matchLabels: labelsSchema }),
    template: z.looseObject({ metadata: z.looseObject({ annotations: labelsSchema }).optional() }).optional(),
  }),
  status: z
    .looseObject({
      currentRevision: z.string().optional(),
      updateRevision: z.string().optional(),
      observedGeneration: count,
      replicas: count,
      updatedReplicas: count,
      readyReplicas: count,
    })
    .optional(),
});

const podViewSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string(), namespace: z.string().optional(), labels: labelsSchema }),
  status: z.looseObject({ podIP: z.string().optional() }).optional(),
});

export class CachedObjectShapeError extends Error {
  override readonly name = 'CachedObjectShapeError';
  constructor(kind: string, name: string, options: ErrorOptions) {
    super(`cached ${kind} ${name} lacks a field the reconcile reads`, options);
  }
}

/** What the reconcile reads of a StatefulSet's status: revisions, and the counts that say a rollout is done. */
function rolloutStatus(status: z.infer<typeof statefulSetViewSchema>['status'] & object): V1StatefulSetStatus {
  const { currentRevision, updateRevision, observedGeneration, replicas, updatedReplicas, readyReplicas } = status;
  return { currentRevision, updateRevision, observedGeneration, replicas: replicas ?? 0, updatedReplicas, readyReplicas };
}

export function statefulSetView(object: KubeObject): V1StatefulSet {
  return keptParse(object, statefulSetViewSchema, () => parseStatefulSetView(object, object.metadata.name));
}

/** The same view of the StatefulSet `name` as an apply's answer has it, which no cache holds yet. */
export function storedStatefulSetView(stored: unknown, name: string): V1StatefulSet {
  return parseStatefulSetView(stored, name);
}

function parseStatefulSetView(object: unknown, name: string): V1StatefulSet {
  const parsed = statefulSetViewSchema.safeParse(object);
  if (!parsed.success) throw new CachedObjectShapeError('StatefulSet', name, { cause: parsed.error });
  const { metadata, spec, status } = parsed.data;
  return {
    metadata: { name: metadata.name, generation: metadata.generation, annotations: metadata.annotations },
    spec: {
      replicas: spec.replicas,
      selector: { matchLabels: spec.selector.matchLabels },
      template: { metadata: { annotations: spec.template?.metadata?.annotations } },
    },
    status: status === undefined ? undefined : rolloutStatus(status),
  };
}

export function podView(object: KubeObject): V1Pod {
  return keptParse(object, podViewSchema, () => parsePodView(object));
}

function parsePodView(object: KubeObject): V1Pod {
  const parsed = podViewSchema.safeParse(object);
  if (!parsed.success) throw new CachedObjectShapeError('Pod', object.metadata.name, { cause: parsed.error });
  const { metadata, status } = parsed.data;
  return {
    metadata: { name: metadata.name, namespace: metadata.namespace, labels: metadata.labels },
    status: { podIP: status?.podIP },
  };
}

/** A workload's member pods as the cache has them, and the members among them: each pod of its StatefulSet with its myid. */
export function memberPods(pods: Pick<Lister<KubeObject>, 'list'>, workload: ZookeeperWorkload): { readonly pods: V1Pod[]; readonly members: MemberPod[] } {
  const { name, namespace = '' } = workload.metadata;
  const views = pods.list({ namespace, labels: memberSelectorLabels(name) }).map(podView);
  const statefulSet = statefulSetNameOf(name);
  const members = views.flatMap((pod) => {
    const podName = pod.metadata?.name ?? '';
    const myid = myidOfPod(podName, statefulSet);
    return myid === undefined ? [] : [{ pod: podName, myid, ip: pod.status?.podIP }];
  });
  return { pods: views, members };
}

/**
 * What the informers keep of each child kind: what the reconcile reads (the views above, the applied-hash annotation,
 * owner references, the ConfigMap's zoo.cfg and the Secret's keys). Pod templates, most statuses and the ConfigMap's
 * scripts are the bulk of these objects and are never read here, so 1,000 ensembles cost little. Pods and StatefulSets
 * are kept as every controller keeps them (apis' MEMBER_POD_FIELDS, STATEFUL_SET_FIELDS), so that in the manager one
 * parse serves them all; of a pod the reconcile reads less (READ_POD_FIELDS).
 */
export const CACHED_CHILD_FIELDS = {
  statefulSet: keepFields(STATEFUL_SET_FIELDS),
  configMap: keepFields({ annotations: true, paths: [['data', CONFIG_FILES.zooCfg]] }),
  service: keepFields({ annotations: true }),
  podDisruptionBudget: keepFields({ annotations: true }),
  secret: keepFields({ paths: [['data']] }),
  pod: keepFields(MEMBER_POD_FIELDS),
} as const;

/** What the reconcile reads of a member pod besides its identity metadata: its IP (podView). */
export const READ_POD_FIELDS: KeptFields = { paths: [['status', 'podIP']] };
