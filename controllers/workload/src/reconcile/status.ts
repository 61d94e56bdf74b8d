// Step 5, the status: observe the ensemble, keep the look in memory (zxids for the observation request-reply, not for
// the status), derive the status, write it when it changed, then announce each fact (Kubernetes Event and NATS event).
// Facts are published after the status that records them is stored. Or, for a workload the controller cannot act on
// until a person fixes something, the blocked status instead.
import type { V1StatefulSet } from '@kubernetes/client-node';
import { workloadEvent, type RestoreStatus, type WorkloadReason, type ZookeeperWorkload, type ZookeeperWorkloadStatus } from '@zk-oam/apis';
import { keyOf, setCondition, storedStatus, writeStatusIfChanged, type KubeClient, type KubeObject, type ObjectKey } from '@zk-oam/runtime';
import type { MemberAccess } from '@zk-oam/zookeeper';
import { deriveStatus, statusChanges, type StatusChange } from '../observe/index.js';
import { clientsAdmitted, withRestore } from '../restore/index.js';
import { memberPods } from './views.js';
import type { WorkloadCaches, WorkloadReconcilerDependencies } from './dependencies.js';
import { WORKLOAD_STATUS } from './resources.js';
import { withScaleRefusal, type ScaleRefusal } from './scale-refusal.js';

type Deps = Pick<WorkloadReconcilerDependencies, 'recorder' | 'bus' | 'observe' | 'observations' | 'statuses' | 'now' | 'source'> & {
  readonly client: Pick<KubeClient, 'request'>;
  readonly caches: Pick<WorkloadCaches, 'pods'>;
};

export interface StatusReport {
  readonly status: ZookeeperWorkloadStatus;
  readonly written: boolean;
  readonly changes: readonly StatusChange[];
  /** Whether any member has a pod IP to observe; without one, only pod events can change what there is to see. */
  readonly observable: boolean;
}

export async function reportStatus(
  deps: Deps,
  raw: KubeObject,
  workload: ZookeeperWorkload,
  statefulSet: V1StatefulSet | undefined,
  outcomes: { readonly refusal: ScaleRefusal | undefined; readonly restore: RestoreStatus | undefined },
  access: MemberAccess,
): Promise<StatusReport> {
  const namespace = workload.metadata.namespace ?? '';
  const { pods, members } = memberPods(deps.caches.pods, workload);
  const ensemble = members.length === 0 ? undefined : await deps.observe(members, access);
  const now = deps.now();
  deps.observations.record({ namespace, name: workload.metadata.name, uid: workload.metadata.uid }, ensemble, now);
  const stored = deps.statuses.freshest(raw);
  const derived = deriveStatus({ workload: { ...workload, status: stored }, statefulSet, pods, ensemble, now });
  const context = { generation: workload.metadata.generation, now };
  const status = withRestore(withScaleRefusal(derived.status, outcomes.refusal, stored, context), outcomes.restore, clientsAdmitted(workload), context);
  const written = await writeStatusIfChanged(deps.client, WORKLOAD_STATUS, keyOf(raw), stored, status, deps.statuses);
  // The facts of the status as stored: a restore under way keeps Ready False whatever the ensemble's health says.
  const changes = written ? statusChanges(stored, { ...derived, status }) : [];
  for (const change of changes) {
    await deps.recorder.record(raw, change.kubernetes);
    await deps.bus.publish(workloadEvent(change, { namespace: workload.metadata.namespace ?? '', name: workload.metadata.name, uid: workload.metadata.uid }, { source: deps.source }));
  }
  return { status, written, changes, observable: members.some((member) => member.ip !== undefined) };
}

export type BlockingReason = Extract<WorkloadReason, 'InvalidSpec' | 'TlsCaSecretInvalid' | 'CertManagerMissing' | 'CertificateNotIssued' | 'AuthenticationSecretInvalid'>;

/**
 * A workload the controller cannot act on until a person fixes something (its spec, a Secret it names): Ready=False
 * with a reason and a message naming the problem, and a Warning Event when that is news. Never a crash loop.
 */
export async function reportBlocked(
  deps: Pick<WorkloadReconcilerDependencies, 'recorder' | 'now'> & { readonly client: Pick<KubeClient, 'request'> },
  key: ObjectKey,
  raw: KubeObject,
  reason: BlockingReason,
  problem: string,
): Promise<void> {
  const stored = storedStatus(WORKLOAD_STATUS.schema, raw);
  const message = problem.slice(0, 4096);
  const previousReady = stored?.conditions?.find((condition) => condition.type === 'Ready');
  if (previousReady?.reason === reason && previousReady.message === message) return;
  const ready = { type: 'Ready', status: 'False', reason, message } as const;
  const conditions = setCondition(stored?.conditions, ready, { generation: raw.metadata.generation, now: deps.now() });
  await writeStatusIfChanged(deps.client, WORKLOAD_STATUS, key, stored, { ...stored, conditions });
  await deps.recorder.record(raw, { type: 'Warning', reason, action: 'Validate', note: message });
}
