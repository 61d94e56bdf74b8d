// The NATS contract: event envelope, one schema per event type, the union, subject naming, and the observation request-reply.
export * from './envelope.js';
export * from './workload.js';
export * from './scale.js';
export * from './rolling.js';
export * from './event.js';
export * from './subject.js';
export * from './observation.js';
