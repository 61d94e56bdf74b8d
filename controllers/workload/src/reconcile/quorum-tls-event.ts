// A Normal Event when the StatefulSet starts a step of the move to TLS, so `kubectl describe` tells the move's story.
import type { V1StatefulSet } from '@kubernetes/client-node';
import type { QuorumTlsStep, ZookeeperWorkload } from '@zk-oam/apis';
import type { KubeObject } from '@zk-oam/runtime';
import { describeQuorumTls, liveQuorumTls } from '../tls/quorum-steps.js';
import type { ChildAction } from './apply-children.js';
import type { WorkloadReconcilerDependencies } from './dependencies.js';

/**
 * Announced only when this reconcile wrote the StatefulSet: a reconcile planned from a cache that has not seen the
 * write yet decides the same step again, applies nothing, and stays silent.
 */
export async function announceQuorumTlsStep(
  deps: Pick<WorkloadReconcilerDependencies, 'recorder'>,
  raw: KubeObject,
  workload: ZookeeperWorkload,
  change: { readonly before: V1StatefulSet | undefined; readonly step: QuorumTlsStep; readonly applied: readonly ChildAction[] },
): Promise<void> {
  const { before, step, applied } = change;
  if (before === undefined || liveQuorumTls(before, workload.spec.tls) === step) return;
  if (!applied.some((action) => action.kind === 'StatefulSet' && action.verb === 'Updated')) return;
  const note = `Moving member-to-member traffic to TLS: the members restart into ${describeQuorumTls(step)}`;
  await deps.recorder.record(raw, { type: 'Normal', reason: 'MovingToTls', action: 'Migrate', note });
}
