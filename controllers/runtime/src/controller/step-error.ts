// A failed reconcile step: it names the step, the object and a stable category (the Event or condition reason a person
// reads), and keeps what failed as its cause. The controller retries the reconcile with backoff.
import { formatKey, type ObjectKey } from '../kube/object.js';

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

/** One step of a reconcile of `kind`: a failure is a ReconcileStepError whose category (the reason a person reads) is `reason`. */
export type StepRunner<Step extends string, Reason extends string> = <T>(step: Step, reason: Reason, key: ObjectKey, run: () => Promise<T>) => Promise<T>;

/** The `inStep` of a controller whose steps fail with reasons of their own: one helper, typed by the controller's steps and reasons. */
export function stepRunner<Step extends string, Reason extends string>(kind: string): StepRunner<Step, Reason> {
  return (step, reason, key, run) => runStep({ step, category: reason, object: `${kind} ${formatKey(key)}` }, run);
}
