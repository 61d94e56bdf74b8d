// Watches pods, starts a PodWorker for each pod bound to a bed node, and stops workers whose pods went away.
import { CoreV1Api, makeInformer, type Informer, type KubeConfig, type ObjectCache, type V1Pod } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { backoffDelayMs, pause } from '@zk-oam/runtime';
import { describeError } from './api-errors.js';
import { restartBackoff } from './restart-backoff.js';
import { PodWorker, type PodWorkerDeps } from './pod-worker.js';

/** A full pass over the informer's cache now and then, in case a watch stalled without an error. */
const resyncMs = 30_000;

export interface PodFleetOptions {
  kubeConfig: KubeConfig;
  nodeNames: readonly string[];
  workerDeps: Omit<PodWorkerDeps, 'core'>;
  log: Logger;
}

export class PodFleet {
  private readonly workers = new Map<string, PodWorker>();
  private readonly nodes: ReadonlySet<string>;
  private readonly core: CoreV1Api;
  private readonly informer: Informer<V1Pod> & ObjectCache<V1Pod>;
  private readonly stopping = new AbortController();
  private watchFailures = 0;

  constructor(private readonly options: PodFleetOptions) {
    this.nodes = new Set(options.nodeNames);
    this.core = options.kubeConfig.makeApiClient(CoreV1Api);
    this.informer = makeInformer<V1Pod>(options.kubeConfig, '/api/v1/pods', () => this.core.listPodForAllNamespaces());
    this.informer.on('add', (pod) => this.observe(pod));
    this.informer.on('update', (pod) => this.observe(pod));
    this.informer.on('delete', (pod) => this.forget(pod));
    this.informer.on('connect', () => {
      this.watchFailures = 0;
    });
    this.informer.on('error', (error: unknown) => void this.restartWatch(error));
  }

  async start(): Promise<void> {
    await this.informer.start();
    void this.resyncLoop();
  }

  /** Stops the watch and every container (SIGTERM, grace capped at `graceMs`, SIGKILL); pods are left in place. */
  async stop(graceMs: number): Promise<void> {
    this.stopping.abort();
    await this.informer.stop();
    await Promise.all([...this.workers.values()].map((worker) => worker.stop('agent is shutting down', false, graceMs)));
  }

  private observe(pod: V1Pod): void {
    const uid = pod.metadata?.uid;
    if (uid === undefined || !this.nodes.has(pod.spec?.nodeName ?? '') || this.stopping.signal.aborted) {
      return;
    }
    const existing = this.workers.get(uid);
    if (existing !== undefined) {
      existing.update(pod);
      return;
    }
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') {
      return;
    }
    const worker = new PodWorker(pod, { ...this.options.workerDeps, core: this.core }, this.options.log, () => {
      this.workers.delete(uid);
    });
    this.workers.set(uid, worker);
    worker.start();
  }

  private forget(pod: V1Pod): void {
    const uid = pod.metadata?.uid;
    const worker = uid === undefined ? undefined : this.workers.get(uid);
    if (worker !== undefined) {
      this.stopWorker(worker, 'pod disappeared from the apiserver');
    }
  }

  private stopWorker(worker: PodWorker, reason: string): void {
    worker.stop(reason, false).catch((error: unknown) => this.options.log.error({ err: error, reason }, 'stopping a pod failed'));
  }

  private async restartWatch(error: unknown): Promise<void> {
    if (this.stopping.signal.aborted) {
      return; // stopping the informer aborts its watch: not a failure
    }
    this.watchFailures += 1;
    const delay = backoffDelayMs(this.watchFailures - 1, restartBackoff);
    this.options.log.warn({ err: describeError(error), delayMs: delay }, 'pod watch failed; restarting after backoff');
    await pause(delay, this.stopping.signal);
    if (!this.stopping.signal.aborted) {
      await this.informer.start().catch((startError: unknown) => this.restartWatch(startError));
    }
  }

  private async resyncLoop(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      await pause(resyncMs, this.stopping.signal);
      try {
        const knownBefore = new Set(this.workers.keys());
        const pods = (await this.core.listPodForAllNamespaces()).items;
        for (const pod of pods) this.observe(pod);
        for (const uid of unlistedWorkers(knownBefore, this.workers.keys(), pods)) {
          const worker = this.workers.get(uid);
          if (worker !== undefined) this.stopWorker(worker, 'pod no longer listed');
        }
      } catch (error) {
        this.options.log.warn({ err: describeError(error) }, 'pod resync failed');
      }
    }
  }
}

/**
 * The workers a resync's list shows gone: only those that existed before the list was asked for. A pod created while
 * the list was under way is missing from it, yet its worker may have started meanwhile; stopping that worker made the
 * next event start a second one for the same pod.
 */
export function unlistedWorkers(knownBefore: ReadonlySet<string>, workersNow: Iterable<string>, listed: readonly V1Pod[]): string[] {
  const present = new Set(listed.map((pod) => pod.metadata?.uid));
  return [...workersNow].filter((uid) => knownBefore.has(uid) && !present.has(uid));
}
