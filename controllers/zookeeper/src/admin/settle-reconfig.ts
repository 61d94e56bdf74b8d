// Brings the committed membership to a target from whatever it is now. A reconfig whose answer is lost with the
// connection (removing the leader does that) is settled by re-reading the committed config, after the kit's backoff.
import { retryWithBackoff, type BackoffPolicy } from '@zk-oam/runtime/retry';
import type { Logger } from 'pino';
import { isEmptyDelta, reconfigDelta } from '../dynamic-config/delta.js';
import type { ServerEntry } from '../dynamic-config/server-line.js';
import type { CommittedConfig, ZooKeeperAdmin } from './client.js';
import { ZOO_CODES } from './codes.js';
import { ZooKeeperConnectionError, ZooKeeperOperationError } from './errors.js';

export interface SettleReconfigOptions {
  /** Total attempts, the first included. Default 5. */
  readonly attempts?: number;
  /** The wait between attempts. Default a steady second. */
  readonly backoff?: BackoffPolicy;
  /** Ends the attempts: a wait under way ends at once and the last failure is thrown. */
  readonly signal?: AbortSignal;
}

/** A steady second, the wait this client always had: what it waits for (a new leader, the reconfig in flight) comes once, so it need not grow. */
const SETTLE_BACKOFF: BackoffPolicy = { baseMs: 1_000, maxMs: 1_000 };

/** Idempotent: syncs, reads the committed config and runs the reconfig it still needs, again while the outcome is unknown. */
export function settleReconfig(
  admin: Pick<ZooKeeperAdmin, 'sync' | 'getConfig' | 'reconfig'>,
  target: readonly ServerEntry[],
  options: SettleReconfigOptions & { log?: Logger | undefined },
): Promise<CommittedConfig> {
  return retryWithBackoff(
    async () => {
      await admin.sync();
      const current = await admin.getConfig();
      const delta = reconfigDelta(current.servers, target);
      return isEmptyDelta(delta) ? current : await admin.reconfig(delta, current.version);
    },
    {
      attempts: options.attempts ?? 5,
      backoff: options.backoff ?? SETTLE_BACKOFF,
      retryable: outcomeUnknown,
      onRetry: (error, attempt) => options.log?.warn({ attempt, err: error }, 'ZooKeeper reconfig outcome unknown, re-reading the committed config'),
      signal: options.signal,
    },
  );
}

/** Lost answers and a reconfig still in flight settle by themselves; anything else is a real refusal. */
function outcomeUnknown(error: unknown): boolean {
  return (
    error instanceof ZooKeeperConnectionError ||
    (error instanceof ZooKeeperOperationError && error.code === ZOO_CODES.ZRECONFIGINPROGRESS)
  );
}
