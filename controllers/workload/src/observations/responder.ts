// Answering "what did the last look at this ensemble see?" over NATS request-reply, from memory. Only the leading
// replica answers: a standby has no current look (its controllers do not run), and its silence leaves the answer to the
// leader instead of racing it with nothing. A leader that has not looked at the workload yet is silent too.
import { ALL_OBSERVATIONS_SUBJECT, observationReplySchema, observationRequestSchema, observationSubject } from '@zk-oam/apis';
import type { Responder } from '@zk-oam/runtime';
import type { LatestObservations } from './latest.js';

export function observationResponder(
  observations: Pick<LatestObservations, 'latest'>,
  leads: () => boolean,
): Responder<typeof observationRequestSchema, typeof observationReplySchema> {
  return {
    subject: ALL_OBSERVATIONS_SUBJECT,
    request: observationRequestSchema,
    reply: observationReplySchema,
    handle: (request, subject) => {
      if (!leads()) return undefined;
      // The body names the workload; a body sent on another workload's subject is not answered.
      if (subject !== observationSubject(request.namespace, request.name)) return undefined;
      return observations.latest(request);
    },
  };
}
