// Object lock failures: the Lease could not be read or written (the lock state is then unknown: retry later).

/** What the lock was doing when it failed. */
export type LockStep = 'inspect' | 'acquire' | 'renew' | 'release';

export class ObjectLockError extends Error {
  override readonly name = 'ObjectLockError';

  constructor(
    /** `namespace/name` of the Lease. */
    readonly lease: string,
    readonly step: LockStep,
    readonly holder: string | undefined,
    options: { cause: unknown },
  ) {
    const who = holder === undefined ? '' : ` for ${holder}`;
    const why = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super(`lock ${lease}: ${step}${who} failed: ${why}`, options);
  }
}
