// A workload the controller cannot act on until a person fixes something (its spec, a Secret it names): Ready=False
// with a reason and a message naming the problem, and a Warning Event when that is news. Never a crash loop.
import type { WorkloadReason } from '@zk-oam/apis';
import { setCondition, storedStatus, writeStatusIfChanged, type KubeObject, type ObjectKey } from '@zk-oam/runtime';
import type { WorkloadReconcilerDependencies } from './dependencies.js';
import { WORKLOAD_STATUS } from './status-writer.js';

export type BlockingReason = Extract<WorkloadReason, 'InvalidSpec' | 'TlsCaSecretInvalid' | 'CertManagerMissing' | 'CertificateNotIssued' | 'AuthenticationSecretInvalid'>;

export async function reportBlocked(
  deps: Pick<WorkloadReconcilerDependencies, 'client' | 'recorder' | 'now'>,
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
