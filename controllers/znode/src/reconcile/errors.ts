// Errors of the znode reconcile: a failed step names itself, the znode and a stable category (the Synced condition's
// and the Warning Event's reason), keeping what failed as its cause.
import { ZOOKEEPER_ZNODE, type ZnodeReason } from '@zk-oam/apis';
import { formatKey, ReconcileStepError, stepRunner, type ObjectKey } from '@zk-oam/runtime';
import { ZooKeeperOperationError } from '@zk-oam/zookeeper';

export type ReconcileStep = 'Finalizer' | 'Credentials' | 'Publish' | 'Path' | 'Cleanup' | 'ReportStatus';

export type ErrorCategory = Extract<
  ZnodeReason,
  | 'SuperuserSecretUnusable'
  | 'TlsSecretUnusable'
  | 'ZooKeeperUnavailable'
  | 'ZooKeeperRefused'
  | 'CredentialsWriteFailed'
  | 'DiscoveryWriteFailed'
  | 'FinalizerFailed'
  | 'StatusWriteFailed'
>;

export const inStep = stepRunner<ReconcileStep, ErrorCategory>(ZOOKEEPER_ZNODE.kind);

/** A step on ZooKeeper: its refusals (ZooKeeperRefused) told apart from a session that could not open or was lost. */
export async function inZooKeeperStep<T>(step: ReconcileStep, key: ObjectKey, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ReconcileStepError) throw error;
    const category: ErrorCategory = error instanceof ZooKeeperOperationError ? 'ZooKeeperRefused' : 'ZooKeeperUnavailable';
    throw new ReconcileStepError(step, category, `${ZOOKEEPER_ZNODE.kind} ${formatKey(key)}`, { cause: error });
  }
}
