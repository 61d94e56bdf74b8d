// A workload the controller cannot act on until a person fixes something (its spec, a Secret it names): Ready=False
// with a reason and a message naming the problem, and a Warning Event when that is news. Never a crash loop.
import { kubernetesTime, type Condition, type WorkloadReason } from '@zk-oam/apis';
import type { KubeObject, ObjectKey } from '@zk-oam/runtime';
import type { WorkloadReconcilerDependencies } from './dependencies.js';
import { storedStatus, writeStatusIfChanged } from './status-writer.js';

export type BlockingReason = Extract<WorkloadReason, 'InvalidSpec' | 'TlsCaSecretInvalid' | 'CertManagerMissing' | 'CertificateNotIssued' | 'AuthenticationSecretInvalid'>;

export async function reportBlocked(
  deps: Pick<WorkloadReconcilerDependencies, 'client' | 'recorder' | 'now'>,
  key: ObjectKey,
  raw: KubeObject,
  reason: BlockingReason,
  problem: string,
): Promise<void> {
  const stored = storedStatus(raw['status']);
  const message = problem.slice(0, 4096);
  const previousReady = stored?.conditions?.find((condition) => condition.type === 'Ready');
  if (previousReady?.reason === reason && previousReady.message === message) return;
  const ready: Condition = {
    type: 'Ready',
    status: 'False',
    reason,
    message,
    ...(raw.metadata.generation === undefined ? {} : { observedGeneration: raw.metadata.generation }),
    lastTransitionTime: previousReady?.status === 'False' ? previousReady.lastTransitionTime : kubernetesTime(deps.now()),
  };
  const conditions = [...(stored?.conditions ?? []).filter((condition) => condition.type !== 'Ready'), ready];
  await writeStatusIfChanged(deps.client, key, stored, { ...stored, conditions });
  await deps.recorder.record(raw, { type: 'Warning', reason, action: 'Validate', note: message });
}
