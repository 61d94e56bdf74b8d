// Turns events into work-queue keys: an event only says "look at this workload again", never what to do.
import type { ObjectKey } from '../kube/object.js';
import type { EventHandler } from './consume.js';

/**
 * An event handler that enqueues the workload each event is about:
 * `bus.subscribe({ durable, handler: eventsToKeys((key) => controller.enqueue(key)) })`.
 * A controller whose primary objects are traits maps the workload key to its traits inside `enqueue`.
 */
export function eventsToKeys(enqueue: (key: ObjectKey) => void): EventHandler {
  return (event) => enqueue({ namespace: event.subject.namespace, name: event.subject.name });
}
