// The znode reconcile, a named pipeline: read -> (finalize) -> finalizer -> decide -> credentials, publish, path ->
// report -> requeue. Every step re-reads state and is safe to repeat, so a controller killed at any line resumes where
// the world is. A znode that does not validate goes straight to report: Ready says so, nothing else is done.
import { ZOOKEEPER_ZNODE, zookeeperZnodeSchema } from '@zk-oam/apis';
import {
  done,
  ensureFinalizer,
  formatKey,
  invalidTraitVerdict,
  readTrait,
  reportStatus,
  type KubeObject,
  type ObjectKey,
  type ReconcileContext,
  type Reconciler,
  type ReconcileResult,
} from '@zk-oam/runtime';
import { warningOf } from './announce.js';
import { decide } from './decide.js';
import type { ZnodeReconcilerDependencies } from './dependencies.js';
import { inStep } from './errors.js';
import { finalize } from './finalize.js';
import { nextReconcile } from './requeue.js';
import { IDENTITY, ZNODE_FINALIZER, ZNODE_STATUS, znodeResource } from './resources.js';
import { serve } from './serve.js';
import { nextStatus } from './status.js';
import type { Finding } from './verdict.js';

/** A failed step is reported on the znode by the kit (reportFailures: Synced False, a Warning), which then backs off. */
export function znodeReconciler(deps: ZnodeReconcilerDependencies): Reconciler {
  return (key, context) => reconcileZnode(deps, key, context);
}

export async function reconcileZnode(deps: ZnodeReconcilerDependencies, key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult> {
  const reading = readTrait(deps.caches, zookeeperZnodeSchema, ZOOKEEPER_ZNODE.kind, key);
  if (reading.kind === 'absent') {
    deps.pacer.release(formatKey(key));
    deps.statuses.forget(key);
    return done;
  }
  if (reading.kind === 'invalid') {
    await report(deps, reading.raw, invalidTraitVerdict(reading.error, context.log));
    return done;
  }
  const { raw, trait } = reading;
  const znode = { ...trait, status: deps.statuses.freshest(raw) };
  if (raw.metadata.deletionTimestamp !== undefined) return finalize(deps, raw, znode, context, (finding) => report(deps, raw, finding));
  await inStep('Finalizer', 'FinalizerFailed', key, () => ensureFinalizer(deps.client, znodeResource, raw, ZNODE_FINALIZER, IDENTITY.fieldManager));
  const verdict = decide(deps.caches, znode);
  const finding = verdict.kind === 'Serve' ? await serve(deps, raw, znode, verdict, context.log.child({ workload: verdict.workload.metadata.name, path: verdict.path })) : verdict;
  if (finding.kind !== 'Served') context.log.debug({ finding: finding.kind }, 'nothing to do but wait');
  await report(deps, raw, finding);
  return nextReconcile(finding, deps.timing, (periodMs) => deps.pacer.delayMs(formatKey(key), periodMs));
}

/** The status the finding gives, written only when it changed, then the Warning it may announce. */
async function report(deps: ZnodeReconcilerDependencies, raw: KubeObject, finding: Finding): Promise<void> {
  const { previous, next } = await reportStatus(deps.client, ZNODE_STATUS, raw, deps.now(), (stored, context) => nextStatus(stored, finding, context), { written: deps.statuses });
  const warning = warningOf(previous, next);
  if (warning !== undefined) await deps.recorder.record(raw, warning);
}
