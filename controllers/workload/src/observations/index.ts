// The latest look at each ensemble, kept in memory and answered over NATS request-reply (zxids stay out of the status).
export { LatestObservations } from './latest.js';
export { observationReply, type ObservedWorkload } from './reply.js';
export { observationResponder } from './responder.js';
