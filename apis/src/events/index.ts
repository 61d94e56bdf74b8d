// The NATS event contract: envelope, one schema per event type, the union, and subject naming.
export * from './envelope.js';
export * from './workload.js';
export * from './scale.js';
export * from './rolling.js';
export * from './event.js';
export * from './subject.js';
