// Step: observe. Everything the planner looks at, read just before planning: the workload's size, its StatefulSet,
// member pods and volumes from the caches, and every member's srvr/mntr plus the committed config from ZooKeeper.
import { INSTANCE_LABEL, myidOfOrdinal, statefulSetNameOf, type ZookeeperScale, type ZookeeperWorkload } from '@zk-oam/apis';
import type { EnsembleObservation } from '@zk-oam/zookeeper';
import type { CommittedReading, ObservedPod, ScalePlanInput } from '../plan/index.js';
import { memberPods, memberVolumes, statefulSetView, type StatefulSetView } from './views.js';
import type { ScaleReconcilerDependencies } from './dependencies.js';
import { memberEntry } from './member-entry.js';

type Deps = Pick<ScaleReconcilerDependencies, 'caches' | 'observe' | 'now'>;

export interface Observation {
  input: ScalePlanInput;
  statefulSet: StatefulSetView | undefined;
  /** Member pods as observed, with their IPs: where the admin session connects. */
  pods: readonly ObservedPod[];
}

export async function observeWorld(deps: Deps, trait: ZookeeperScale, workload: ZookeeperWorkload): Promise<Observation> {
  const namespace = workload.metadata.namespace ?? '';
  const name = workload.metadata.name;
  const members = statefulSetNameOf(name);
  const cachedStatefulSet = deps.caches.statefulSets.get({ namespace, name: members });
  const statefulSet = cachedStatefulSet === undefined ? undefined : statefulSetView(cachedStatefulSet);
  const labels = { [INSTANCE_LABEL]: name };
  const pods = memberPods(deps.caches.pods.list({ namespace, labels }), members);
  const volumes = memberVolumes(deps.caches.volumes.list({ namespace, labels }), members);
  const live = pods.filter((pod) => !pod.deleting);
  const ensemble = live.length === 0 ? undefined : await deps.observe(live.map((pod) => ({ pod: pod.name, myid: myidOfOrdinal(pod.ordinal), ip: pod.podIP })));
  const committed = committedReading(ensemble);
  const servers = committed.ok ? committed.config.servers : [];
  const input: ScalePlanInput = {
    trait: trait.spec,
    recordedStep: trait.status?.step,
    workloadReplicas: workload.spec.replicas,
    statefulSet: statefulSet === undefined ? undefined : { name: statefulSet.name, replicas: statefulSet.replicas },
    pods,
    volumes,
    committed,
    observations: ensemble?.members.map((member) => member.observation) ?? [],
    serverEntryOf: (myid) => memberEntry(servers, members, myid),
    now: deps.now(),
  };
  return { input, statefulSet, pods };
}

function committedReading(ensemble: EnsembleObservation | undefined): CommittedReading {
  if (ensemble === undefined) return { ok: false, reason: 'no member pod is running' };
  return ensemble.committed.ok ? { ok: true, config: ensemble.committed.config } : { ok: false, reason: ensemble.committed.error.message };
}
