// Asking the workload controller for its latest look at an ensemble (core NATS request-reply, answered from its
// memory by its leading replica). Called only after the caller's own GET of the workload succeeded: a caller who may
// not read the workload causes no request. Never fails: no NATS, no answer within the timeout or a malformed one
// becomes a reason shown instead of the lags.
import { observationReplySchema, observationSubject, type ZookeeperWorkload } from '@zk-oam/apis';
import type { EventBus, RequestFailure } from '@zk-oam/runtime';
import type { ObservationAnswer } from '../views/zxid-lag.js';

/** How long the info waits for the workload controller: it answers from memory, so a second is plenty. */
export const OBSERVATION_TIMEOUT_MS = 1_000;

const REASONS: Record<RequestFailure, string> = {
  not_connected: 'the console is not connected to NATS',
  no_responder: 'no workload controller answers on NATS',
  timeout: `the workload controller did not answer within ${String(OBSERVATION_TIMEOUT_MS)} ms (stopped, or it has not looked at this ensemble yet)`,
  invalid_reply: "the workload controller's answer is malformed",
  error: 'asking the workload controller failed',
};

export async function askObservation(bus: Pick<EventBus, 'request'> | undefined, workload: ZookeeperWorkload): Promise<ObservationAnswer> {
  if (bus === undefined) return { ok: false, reason: 'the console has no NATS (NATS_URL is unset)' };
  const namespace = workload.metadata.namespace ?? '';
  const { name } = workload.metadata;
  const outcome = await bus.request({
    subject: observationSubject(namespace, name),
    body: { namespace, name },
    reply: observationReplySchema,
    timeoutMs: OBSERVATION_TIMEOUT_MS,
  });
  if (outcome.ok) return outcome;
  const detail = outcome.failure === 'invalid_reply' || outcome.failure === 'error' ? `: ${outcome.message}` : '';
  return { ok: false, reason: `${REASONS[outcome.failure]}${detail}` };
}
