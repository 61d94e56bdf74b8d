// Step: report. Writes the trait's status (server-side apply on /status) only when it changed, then announces each
// fact it records as a Kubernetes Event on the trait and a NATS event about the workload.
import { createEvent, scaleStatusSchema, ZOOKEEPER_WORKLOAD, type ZkEvent, type ZookeeperScaleStatus } from '@zk-oam/apis';
import { keyOf, writeStatusIfChanged, type KubeObject, type StatusTarget } from '@zk-oam/runtime';
import { announcements, type Announcement } from './announcements.js';
import type { ScaleReconcilerDependencies } from './dependencies.js';
import { FIELD_MANAGER, scaleResource } from './resources.js';

type Deps = Pick<ScaleReconcilerDependencies, 'client' | 'recorder' | 'bus' | 'source'>;

export const SCALE_STATUS: StatusTarget<typeof scaleStatusSchema> = { resource: scaleResource, schema: scaleStatusSchema, fieldManager: FIELD_MANAGER };

export interface WorkloadSubject {
  namespace: string;
  name: string;
  uid: string | undefined;
}

/** Returns the announcements made (none when nothing changed). */
export async function reportStatus(
  deps: Deps,
  trait: KubeObject,
  workload: WorkloadSubject | undefined,
  previous: ZookeeperScaleStatus | undefined,
  next: ZookeeperScaleStatus,
): Promise<Announcement[]> {
  if (!(await writeStatusIfChanged(deps.client, SCALE_STATUS, keyOf(trait), previous, next))) return [];
  const made = announcements(previous, next);
  for (const announcement of made) {
    await deps.recorder.record(trait, announcement.kubernetes);
    if (workload !== undefined) await deps.bus.publish(natsEventOf(announcement, workload, deps.source));
  }
  return made;
}

/** One NATS event per fact, about the workload (so one subject hierarchy covers an ensemble). */
function natsEventOf(announcement: Announcement, workload: WorkloadSubject, source: string): ZkEvent {
  const subject = {
    apiVersion: ZOOKEEPER_WORKLOAD.apiVersion,
    kind: ZOOKEEPER_WORKLOAD.kind,
    namespace: workload.namespace,
    name: workload.name,
    ...(workload.uid === undefined ? {} : { uid: workload.uid }),
  };
  switch (announcement.type) {
    case 'ScaleStepStarted':
      return createEvent({ type: announcement.type, data: announcement.data, source, subject });
    case 'ScaleStepCompleted':
      return createEvent({ type: announcement.type, data: announcement.data, source, subject });
    case 'ScaleBlocked':
      return createEvent({ type: announcement.type, data: announcement.data, source, subject });
  }
}
