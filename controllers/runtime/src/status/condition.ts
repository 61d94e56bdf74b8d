// Status conditions as Kubernetes keeps them (metav1.Condition, set as apimachinery's meta.SetStatusCondition sets
// them): one entry per type, whose lastTransitionTime says since when its status holds, so it moves only when the
// status does; a new reason, message or generation alone keeps it.
import { kubernetesTime, type Condition } from '@zk-oam/apis';

/** A condition as a controller decides it; setCondition adds the generation and the time. */
export type ConditionVerdict = Pick<Condition, 'type' | 'status' | 'reason' | 'message'>;

export interface ConditionContext {
  /** The metadata.generation the verdict was reached from; undefined leaves observedGeneration out. */
  readonly generation: number | undefined;
  readonly now: Date;
}

/** `observedGeneration`, of a status or a condition, from the context; left out when the generation is unknown. */
export function observedGeneration(context: Pick<ConditionContext, 'generation'>): { readonly observedGeneration?: number } {
  return context.generation === undefined ? {} : { observedGeneration: context.generation };
}

/** What setCondition reads of the conditions it is given: OAM's (crossplane-runtime's) may leave the message out. */
export type StoredCondition = Pick<Condition, 'type' | 'status' | 'lastTransitionTime'>;

/** `conditions` with `verdict` in place of the condition of its type, or added last; the others as they were. */
export function setCondition<C extends StoredCondition>(
  conditions: readonly C[] | undefined,
  verdict: ConditionVerdict,
  context: ConditionContext,
): (C | Condition)[] {
  const current = conditions ?? [];
  const before = current.find((condition) => condition.type === verdict.type);
  const condition: Condition = {
    type: verdict.type,
    status: verdict.status,
    reason: verdict.reason,
    message: verdict.message,
    ...observedGeneration(context),
    lastTransitionTime: before?.status === verdict.status ? before.lastTransitionTime : kubernetesTime(context.now),
  };
  return before === undefined ? [...current, condition] : current.map((entry) => (entry === before ? condition : entry));
}

/** setCondition for each verdict in turn: a status that decides several conditions at once. */
export function setConditions<C extends StoredCondition>(
  conditions: readonly C[] | undefined,
  verdicts: readonly ConditionVerdict[],
  context: ConditionContext,
): (C | Condition)[] {
  return verdicts.reduce<(C | Condition)[]>((current, verdict) => setCondition(current, verdict, context), [...(conditions ?? [])]);
}

/**
 * A spec that does not validate: Ready=False/InvalidSpec with the validation's message, and the rest of the status as
 * it was, the generation it speaks of included, since nothing of the spec was read.
 */
export function withInvalidSpec<S extends { readonly conditions?: readonly Condition[] | undefined }>(
  stored: S | undefined,
  message: string,
  context: ConditionContext,
): S | { conditions: Condition[] } {
  const conditions = setCondition(stored?.conditions, { type: 'Ready', status: 'False', reason: 'InvalidSpec', message }, context);
  return stored === undefined ? { conditions } : { ...stored, conditions };
}

/** Text as a condition's message carries it: its first 4 KiB (the API takes 32 KiB; a person reads the start). */
export function conditionMessage(text: string): string {
  return text.slice(0, 4096);
}
