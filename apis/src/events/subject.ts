// NATS naming for zk-oam events: subjects `zk.<namespace>.<workload>.<type>` in one JetStream stream.
import type { ZkEvent, ZkEventType } from './event.js';

/** The stream every zk-oam event is stored in, and the subjects it captures. */
export const zkEventStream = { name: 'ZKOAM_EVENTS', subjects: ['zk.>'] } as const;

/**
 * Object names may contain dots, which NATS reads as token separators; `_` never occurs in a
 * Kubernetes name, so replacing `.` with `_` keeps one token per name and stays unambiguous.
 */
export function subjectToken(name: string): string {
  return name.replaceAll('.', '_');
}

export function eventSubject(namespace: string, workload: string, type: ZkEventType): string {
  return `zk.${subjectToken(namespace)}.${subjectToken(workload)}.${type}`;
}

/** The subject an event is published on, from its own subject reference. */
export function subjectOfEvent(event: ZkEvent): string {
  return eventSubject(event.subject.namespace, event.subject.name, event.type);
}

/**
 * A filter subject for consumers: every event, or narrowed to a namespace, a workload, a type.
 * Omitted parts match any token.
 */
export function eventFilterSubject(filter: { namespace?: string; workload?: string; type?: ZkEventType }): string {
  const namespace = filter.namespace === undefined ? '*' : subjectToken(filter.namespace);
  const workload = filter.workload === undefined ? '*' : subjectToken(filter.workload);
  return `zk.${namespace}.${workload}.${filter.type ?? '*'}`;
}
