// The controller kit: informers, work queue, reconcile loop, leader election, apply helpers, metrics, event bus.
export * from './events/index.js';
