// Writes a pod's status subresource: one write at a time, when it changed here or there, tolerating a pod gone or replaced.
import { PatchStrategy, setHeaderOptions, type CoreV1Api, type V1Pod, type V1PodCondition } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { apiStatusCode, describeError } from './api-errors.js';
import { pause } from '@zk-oam/runtime';
import { conditionsDiverged, type ReportedPodStatus } from './pod-status.js';

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const retryMs = 1_000;

export class PodStatusWriter {
  private readonly name: string;
  private readonly namespace: string;
  private readonly uid: string | undefined;
  private readonly closed = new AbortController();
  private conditions: V1PodCondition[];
  private lastWritten = '';
  /** The pod's resourceVersion our last write made: a watch event older than that shows our own earlier writes. */
  private writtenVersion = 0;
  private dirty = false;
  private writing: Promise<void> | undefined;

  /** `render` gets the conditions last written, so unchanged conditions keep their transition times. */
  constructor(
    private readonly core: CoreV1Api,
    pod: V1Pod,
    private readonly log: Logger,
    private readonly render: (previous: readonly V1PodCondition[]) => ReportedPodStatus,
  ) {
    this.name = pod.metadata?.name ?? '';
    this.namespace = pod.metadata?.namespace ?? '';
    this.uid = pod.metadata?.uid;
    this.conditions = pod.status?.conditions ?? [];
  }

  /** Schedules a write of the current status; requests during a write fold into one follow-up write. */
  request(): void {
    this.dirty = true;
    this.writing ??= this.writeWhileDirty().finally(() => {
      this.writing = undefined;
    });
  }

  /**
   * The pod as the apiserver has it now. Like a kubelet's status manager, conditions someone else changed are written
   * back, from the apiserver's as the previous ones so the transition times move.
   */
  observe(pod: V1Pod): void {
    const current = pod.status?.conditions ?? [];
    if (this.lastWritten !== '' && isAfter(pod, this.writtenVersion) && conditionsDiverged(this.conditions, current)) {
      this.conditions = current;
      this.lastWritten = '';
    }
    this.request();
  }

  /** No writes after this: the pod is being stopped or deleted. */
  close(): void {
    this.closed.abort();
  }

  private async writeWhileDirty(): Promise<void> {
    while (this.dirty && !this.closed.signal.aborted) {
      this.dirty = false;
      const status = this.render(this.conditions);
      const serialised = JSON.stringify(status);
      if (serialised === this.lastWritten) {
        continue;
      }
      try {
        // The uid in the patch makes the apiserver refuse (422) to write onto a newer pod of the same name.
        const written = await this.core.patchNamespacedPodStatus({ name: this.name, namespace: this.namespace, body: { metadata: { uid: this.uid }, status } }, mergePatch);
        this.lastWritten = serialised;
        this.writtenVersion = resourceVersionOf(written);
        this.conditions = status.conditions;
        this.log.debug({ phase: status.phase, ready: status.containerStatuses[0]?.ready }, 'pod status written');
      } catch (error) {
        const code = apiStatusCode(error);
        if (code === 404 || code === 422) {
          this.log.debug({ code }, 'pod status not written: pod gone or replaced');
          return;
        }
        this.log[code === 409 ? 'debug' : 'warn']({ err: describeError(error) }, 'writing pod status failed; retrying');
        this.dirty = true;
        await pause(retryMs, this.closed.signal);
      }
    }
  }
}

/** The bed's apiserver stores in etcd, whose resourceVersions are increasing revisions: an agent on it may compare them. */
function resourceVersionOf(pod: V1Pod): number {
  return Number(pod.metadata?.resourceVersion ?? 0) || 0;
}

function isAfter(pod: V1Pod, version: number): boolean {
  return resourceVersionOf(pod) > version;
}
