// The NATS event bus: publish events, consume them through durable JetStream consumers as work-queue keys, or follow
// them to show them.
export { connectEventBus } from './bus.js';
export type { EventBus, EventBusOptions, EventSubscription, SubscribeOptions } from './bus.js';
export type { EventHandler } from './consume.js';
export type { FollowOptions } from './follow.js';
export type { RequestFailure, RequestOptions, RequestOutcome, Responder } from './request-reply.js';
export type { NatsConnectionOptions } from './connection.js';
export { eventsToKeys } from './keys.js';
export { defaultEventStream, EventStreamSetupError } from './stream.js';
export type { EventStreamOptions } from './stream.js';
