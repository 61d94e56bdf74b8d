// The per-workload disruption lock (Lease `<workload>-disruption`) a scale operation holds from its first step to
// Done, as `scale/<trait>`; the rolling controller takes the same lock as `rolling/<trait>`.
import { disruptionLeaseName, disruptionLockHolder, ZOOKEEPER_WORKLOAD, type ZookeeperWorkload } from '@zk-oam/apis';
import type { BusyLockInfo, LockResult } from '@zk-oam/runtime';
import type { ScaleReconcilerDependencies } from './dependencies.js';

type Deps = Pick<ScaleReconcilerDependencies, 'lockOf' | 'timing'>;

export interface DisruptionLock {
  lease: string;
  /** Takes or renews the lock; call right before each step. */
  hold(operation: string): Promise<LockResult>;
  /** Gives it up if this trait holds it; true when it did. */
  release(): Promise<boolean>;
  /** Who else holds it now (unexpired), without taking it. */
  heldElsewhere(): Promise<BusyLockInfo | undefined>;
}

export function disruptionLock(deps: Deps, workload: ZookeeperWorkload, traitName: string): DisruptionLock {
  const { name, namespace, uid } = workload.metadata;
  const lease = disruptionLeaseName(name);
  const lock = deps.lockOf(namespace ?? '', { apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind, name, uid: uid ?? '' }, lease);
  const holder = disruptionLockHolder('scale', traitName);
  return {
    lease,
    hold: (operation) => lock.tryAcquire(holder, { leaseDurationSeconds: deps.timing.lockDurationSeconds, operation }),
    release: () => lock.release(holder),
    heldElsewhere: async () => {
      const state = await lock.inspect();
      return state.kind === 'held' && !state.expired && state.holder !== holder ? state : undefined;
    },
  };
}
