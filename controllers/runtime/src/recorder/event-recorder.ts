// Records Kubernetes Events (events.k8s.io/v1) about objects; a repeat of the same event bumps its series
// count instead of creating a new Event. Recording never fails a reconcile: failures are logged.
import { randomBytes } from 'node:crypto';
import { PatchStrategy } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { isApiError, type KubeClient } from '../kube/client.js';
import { collectionPath, coreResources, objectPath } from '../kube/resource.js';
import type { KubeObject } from '../kube/object.js';
import { microTime } from '../kube/micro-time.js';
import { systemClock, type Clock } from '../queue/clock.js';

interface EventText {
  /** What was done or failed, in UpperCamelCase. */
  readonly action: string;
  /** A human-readable sentence, at most 1 kB. */
  readonly note: string;
}

/**
 * An Event to record. Its reason is why, in UpperCamelCase (the category a person filters on); a controller narrows
 * Warning reasons to those its troubleshooting catalog explains (`EventRecorder<Reason>`).
 */
export type EventDetails<WarningReason extends string = string> =
  | (EventText & { readonly type: 'Warning'; readonly reason: WarningReason })
  | (EventText & { readonly type: 'Normal'; readonly reason: string });

export interface EventRecorderOptions {
  readonly client: KubeClient;
  /** The controller's name, e.g. `zookeeper.zkoam.dev/workload`. */
  readonly reportingController: string;
  /** This process, e.g. the pod name. */
  readonly reportingInstance: string;
  readonly logger: Logger;
  readonly clock?: Clock;
  /** How many distinct events to remember for aggregation. Default 4096. */
  readonly memory?: number;
}

interface Recorded {
  readonly namespace: string;
  readonly name: string;
  count: number;
}

export class EventRecorder<WarningReason extends string = string> {
  private readonly recorded = new Map<string, Recorded>();
  private readonly clock: Clock;

  constructor(private readonly options: EventRecorderOptions) {
    this.clock = options.clock ?? systemClock;
  }

  async record(regarding: KubeObject, details: EventDetails<WarningReason>): Promise<void> {
    const meta = regarding.metadata;
    const identity = [meta.uid ?? '', meta.namespace ?? '', meta.name, details.type, details.reason, details.action, details.note].join('\u0000');
    const log = this.options.logger.child({ regarding: `${regarding.kind ?? ''} ${meta.namespace ?? ''}/${meta.name}`, reason: details.reason });
    try {
      const previous = this.recorded.get(identity);
      if (previous !== undefined && (await this.bump(previous))) return;
      this.remember(identity, await this.create(regarding, details));
    } catch (error) {
      log.warn({ err: error }, 'could not record a Kubernetes Event');
    }
  }

  private async create(regarding: KubeObject, details: EventDetails): Promise<Recorded> {
    const meta = regarding.metadata;
    const namespace = meta.namespace ?? 'default';
    // Like client-go: the object's name, a dot, a unique suffix; cut so the result stays a valid name.
    const name = `${meta.name.slice(0, 220)}.${this.clock.now().toString(16)}${randomBytes(4).toString('hex')}`;
    await this.options.client.request('POST', collectionPath(coreResources.event, namespace), {
      body: {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name, namespace },
        eventTime: microTime(this.clock.now()),
        reportingController: this.options.reportingController,
        reportingInstance: this.options.reportingInstance,
        regarding: {
          apiVersion: regarding.apiVersion,
          kind: regarding.kind,
          name: meta.name,
          namespace: meta.namespace,
          uid: meta.uid,
          resourceVersion: meta.resourceVersion,
        },
        type: details.type,
        reason: details.reason,
        action: details.action,
        note: details.note.slice(0, 1024),
      },
    });
    return { namespace, name, count: 1 };
  }

  /** Returns false when the Event is gone (expired), so a new one is created. */
  private async bump(previous: Recorded): Promise<boolean> {
    const count = previous.count + 1;
    try {
      await this.options.client.request('PATCH', objectPath(coreResources.event, previous), {
        body: { series: { count, lastObservedTime: microTime(this.clock.now()) } },
        contentType: PatchStrategy.MergePatch,
      });
    } catch (error) {
      if (isApiError(error, 404)) return false;
      throw error;
    }
    previous.count = count;
    return true;
  }

  private remember(identity: string, recorded: Recorded): void {
    this.recorded.set(identity, recorded);
    const oldest = this.recorded.keys().next();
    if (this.recorded.size > (this.options.memory ?? 4096) && oldest.done !== true) this.recorded.delete(oldest.value);
  }
}
