// A failed reconcile step: it names the step, the object and a stable category (the Event or condition reason a person
// reads), and keeps what failed as its cause. The controller retries the reconcile with backoff.

export class ReconcileStepError extends Error {
  override readonly name = 'ReconcileStepError';
  constructor(
    readonly step: string,
    readonly category: string,
    /** Kind and key, e.g. `ZookeeperScale prod/zk-scale`. */
    readonly object: string,
    options: { cause: unknown },
  ) {
    const detail = category === step ? '' : ` (${category})`;
    super(`${step} for ${object} failed${detail}: ${options.cause instanceof Error ? options.cause.message : String(options.cause)}`, options);
  }
}

export interface StepContext {
  readonly step: string;
  /** Defaults to the step. */
  readonly category?: string;
  readonly object: string;
}

/**
 * Runs one step; a failure becomes a ReconcileStepError for it, unless it is one already (an inner step's) or
 * `passThrough` keeps it as it is (an error that speaks for itself to the caller).
 */
export async function runStep<T>(context: StepContext, run: () => Promise<T>, passThrough: (error: unknown) => boolean = () => false): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ReconcileStepError || passThrough(error)) throw error;
    throw new ReconcileStepError(context.step, context.category ?? context.step, context.object, { cause: error });
  }
}
