// Every failed reconcile is shown where people look: a Warning Event on the object and a False condition in its
// status, naming the step, its category and the API server's message. The error still goes back to the queue, which
// retries with backoff.
//
// The condition type must be one the controller's own status always sets (Ready, Synced): its next successful
// reconcile then replaces the failure. Events are rate-limited per object and reason, so a step failing every few
// seconds costs one Event write per interval, not one per failure.
import { conditionSchema, type ReconcileFailureReason } from '@zk-oam/apis';
import type { Logger } from 'pino';
import { z } from 'zod';
import { isApiError, isNamespaceTerminating, KubeApiError, type KubeClient } from '../kube/client.js';
import type { KubeObject, ObjectKey } from '../kube/object.js';
import { formatKey, kubeObjectSchema } from '../kube/object.js';
import { objectPath, type ResourceType } from '../kube/resource.js';
import { applyStatus } from '../apply/server-side-apply.js';
import { systemClock, type Clock } from '../queue/clock.js';
import type { EventRecorder } from '../recorder/event-recorder.js';
import { setCondition } from '../status/condition.js';
import type { Reconciler } from './reconciler.js';
import { ReconcileStepError } from './step-error.js';

/** A failure as a person reads it: the step that failed, its stable category (the reason), and what was said. */
export interface Failure {
  readonly step: string;
  readonly category: string;
  readonly message: string;
}

/** A thrown error that is not a step's: a defect, reported as such instead of a silent retry. */
export const UNEXPECTED_FAILURE = { step: 'Reconcile', category: 'InternalError' satisfies ReconcileFailureReason } as const;

export interface FailureReportOptions {
  readonly client: Pick<KubeClient, 'request'>;
  readonly recorder: Pick<EventRecorder, 'record'>;
  /** The reconciled kind; its status subresource gets the condition. */
  readonly resource: ResourceType;
  /** Ready for most kinds, Synced for an ApplicationConfiguration. */
  readonly conditionType: string;
  /** Owner of the failure condition's fields, apart from the controller's own status manager. */
  readonly fieldManager: string;
  readonly logger: Logger;
  /** At most one Event per object and reason in this time. Default 60 s. */
  readonly eventIntervalMs?: number;
  readonly clock?: Clock;
}

const MESSAGE_LIMIT = 1024;
/** Objects whose last Event time is remembered; the oldest is forgotten first. */
const EVENT_MEMORY = 4096;

/** What the API server answered, when the cause is its refusal; otherwise the error's own message. */
function causeMessage(cause: unknown): string {
  if (cause instanceof KubeApiError) return `${String(cause.code)} ${cause.reason}: ${cause.detail}`;
  return cause instanceof Error ? cause.message : String(cause);
}

export function describeFailure(error: unknown): Failure {
  if (error instanceof ReconcileStepError) {
    return { step: error.step, category: error.category, message: `step ${error.step} failed (${error.category}): ${causeMessage(error.cause)}` };
  }
  return { ...UNEXPECTED_FAILURE, message: `unexpected error: ${causeMessage(error)}` };
}

/** Wraps a reconciler so that each failure it throws is reported on its object before the kit backs off. */
export function reportingFailures(reconciler: Reconciler, options: FailureReportOptions): Reconciler {
  const reporter = new FailureReporter(options);
  return async (key, context) => {
    try {
      return await reconciler(key, context);
    } catch (error) {
      if (!isNamespaceTerminating(error)) await reporter.report(key, describeFailure(error), context.log);
      throw error;
    }
  };
}

class FailureReporter {
  private readonly lastEventAt = new Map<string, number>();
  private readonly clock: Clock;

  constructor(private readonly options: FailureReportOptions) {
    this.clock = options.clock ?? systemClock;
  }

  /** Never throws: a report that cannot be written is logged, and the reconcile's own error stands. */
  async report(key: ObjectKey, failure: Failure, log: Logger): Promise<void> {
    log.warn({ step: failure.step, category: failure.category, failure: failure.message }, 'reconcile step failed; reporting it on the object');
    try {
      const object = await this.read(key);
      if (object === undefined) return;
      await this.writeCondition(key, object, failure);
      if (this.eventDue(object, failure)) {
        await this.options.recorder.record(object, { type: 'Warning', reason: failure.category, action: failure.step, note: failure.message });
      }
    } catch (error) {
      log.warn({ err: error }, 'could not report the failure on the object');
    }
  }

  private async read(key: ObjectKey): Promise<KubeObject | undefined> {
    try {
      return kubeObjectSchema.parse(await this.options.client.request('GET', objectPath(this.options.resource, key)));
    } catch (error) {
      if (isApiError(error, 404)) return undefined;
      throw error;
    }
  }

  /** Written only when it says something new, so a failure repeating every few seconds writes status once. */
  private async writeCondition(key: ObjectKey, object: KubeObject, failure: Failure): Promise<void> {
    const { conditionType } = this.options;
    const message = failure.message.slice(0, MESSAGE_LIMIT);
    const stored = storedConditions(object);
    const previous = stored.find((condition) => condition.type === conditionType);
    if (previous?.status === 'False' && previous.reason === failure.category && previous.message === message) return;
    const context = { generation: object.metadata.generation, now: new Date(this.clock.now()) };
    const verdict = { type: conditionType, status: 'False', reason: failure.category, message } as const;
    // Its own field manager owns this one condition only: the others stay the controller's.
    const conditions = setCondition(stored, verdict, context).filter((condition) => condition.type === conditionType);
    await applyStatus(this.options.client, this.options.resource, key, { conditions }, { fieldManager: this.options.fieldManager });
  }

  private eventDue(object: KubeObject, failure: Failure): boolean {
    const identity = `${formatKey({ namespace: object.metadata.namespace ?? '', name: object.metadata.name })}\u0000${object.metadata.uid ?? ''}\u0000${failure.category}`;
    const now = this.clock.now();
    const last = this.lastEventAt.get(identity);
    if (last !== undefined && now - last < (this.options.eventIntervalMs ?? 60_000)) return false;
    this.lastEventAt.delete(identity);
    this.lastEventAt.set(identity, now);
    const oldest = this.lastEventAt.keys().next();
    if (this.lastEventAt.size > EVENT_MEMORY && oldest.done !== true) this.lastEventAt.delete(oldest.value);
    return true;
  }
}

const storedStatusSchema = z.looseObject({ status: z.looseObject({ conditions: z.array(z.unknown()).optional() }).optional() });

/** Any kind's conditions: metav1's, or OAM's without a message. */
const storedConditionSchema = conditionSchema.partial({ message: true });

/** The stored conditions that parse; a malformed one counts as none (the failure's condition is then dated now). */
function storedConditions(object: KubeObject): z.infer<typeof storedConditionSchema>[] {
  const conditions = storedStatusSchema.safeParse(object).data?.status?.conditions ?? [];
  return conditions.flatMap((condition) => storedConditionSchema.safeParse(condition).data ?? []);
}
