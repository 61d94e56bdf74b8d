// The Warning a status change announces (pure): Ready newly False for a reason that needs a person. What a step did is
// recorded by the step itself (serve.ts, finalize.ts).
import type { ZnodeReason, ZookeeperZnodeStatus } from '@zk-oam/apis';
import { warningOnNews, type EventDetails } from '@zk-oam/runtime';

/** Ready newly False for these reasons is a Warning, with the action that could not go on. */
const READY_WARNINGS = {
  InvalidSpec: 'Validate',
  WorkloadNotFound: 'FindWorkload',
  WorkloadInvalid: 'ReadWorkload',
  WorkloadNotShared: 'AdmitNamespace',
  PrincipalMismatch: 'ChoosePrincipal',
  PathConflict: 'ClaimPath',
} as const satisfies Partial<Record<ZnodeReason, string>>;

/** Ready newly False for a reason a person must fix: one Warning, not one per reconcile. */
export function warningOf(previous: ZookeeperZnodeStatus | undefined, next: ZookeeperZnodeStatus): EventDetails<ZnodeReason> | undefined {
  return warningOnNews(previous?.conditions, next.conditions, 'Ready', READY_WARNINGS);
}
