// The manager runs one deployable: informers, controllers, leader election, the probe/metrics server.
//
// `run(signal)` starts everything; controllers start once this replica leads and the caches are synced.
// When `signal` aborts: stop taking work, finish the reconciles in flight, release the lease, stop the
// informers and the server, then resolve. When leadership is lost: stop the controllers and reject with
// LeadershipLostError; main should exit non-zero, as controller-runtime does.
import type { PooledKubeConfig } from '../kube/pooled-kube-config.js';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { KubeClient } from '../kube/client.js';
import { checkedKubeObjectSchema } from '../kube/kube-object-check.js';
import type { KubeObject } from '../kube/object.js';
import type { ResourceType } from '../kube/resource.js';
import type { InformerOptions } from '../informer/informer.js';
import type { ReflectorPool } from '../informer/reflector-pool.js';
import { MergedInformer } from '../informer/merged-informer.js';
import { buildController, type ControllerDefinition } from '../controller/builder.js';
import type { Controller } from '../controller/controller.js';
import { LeaderElector, type ElectionEnd } from '../leader/leader-election.js';
import { EventRecorder } from '../recorder/event-recorder.js';
import { createRuntimeMetrics, type RuntimeMetrics } from '../metrics/runtime-metrics.js';
import { untilAborted } from '../queue/clock.js';
import { startHttpServer, type RunningHttpServer } from './http-server.js';

export interface LeaderElectionConfig {
  readonly namespace: string;
  readonly name: string;
  readonly identity: string;
  readonly leaseDurationMs?: number;
  readonly renewDeadlineMs?: number;
  readonly retryPeriodMs?: number;
}

export interface ManagerOptions {
  /** The deployable's name; also the default field manager and Event reporting controller. */
  readonly name: string;
  readonly kubeConfig: PooledKubeConfig;
  readonly logger: Logger;
  /** Where every kit metric is registered; pass a fresh one per manager (there is no global). */
  readonly registry: Registry;
  /** Omit to run without a probe/metrics server. Host defaults to 127.0.0.1; in a pod pass 0.0.0.0. */
  readonly http?: { readonly port: number; readonly host?: string };
  /** Omit to lead unconditionally (a single replica). */
  readonly leaderElection?: LeaderElectionConfig;
  /**
   * Informers list and watch these distinct namespaces alone, one informer each, merged; every namespace when omitted or
   * empty. Cluster-scoped kinds are unaffected.
   */
  readonly namespaces?: readonly string[];
  /** Where its informers find reflectors to share with other managers of the process; each informer its own when omitted. */
  readonly reflectors?: ReflectorPool;
}

export type ManagedInformerOptions<T extends KubeObject> = Omit<InformerOptions<T>, 'client' | 'resource' | 'logger' | 'metrics' | 'namespace' | 'reflectors'>;

export class LeadershipLostError extends Error {
  constructor(readonly lease: string) {
    super(`leadership of lease ${lease} was lost; exiting so a new leader starts from a clean state`);
    this.name = 'LeadershipLostError';
  }
}

export class Manager {
  readonly client: KubeClient;
  readonly metrics: RuntimeMetrics;
  private readonly log: Logger;
  private readonly informers: Pick<MergedInformer<KubeObject>, 'start' | 'stop' | 'hasSynced' | 'waitForSync'>[] = [];
  private readonly controllers: Controller[] = [];
  private readonly elector: LeaderElector | undefined;
  private server: RunningHttpServer | undefined;

  constructor(private readonly options: ManagerOptions) {
    this.client = new KubeClient(options.kubeConfig);
    this.metrics = createRuntimeMetrics(options.registry);
    this.log = options.logger;
    const election = options.leaderElection;
    this.elector =
      election === undefined
        ? undefined
        : new LeaderElector({
            ...election,
            client: this.client,
            logger: this.log,
            leaderGauge: this.metrics.leader,
            renewInterval: this.metrics.leaderRenewInterval,
            slowpath: this.metrics.leaderSlowpath,
          });
  }

  /** A new informer run by this manager; share the returned one between controllers. */
  informer<T extends KubeObject>(resource: ResourceType, options: ManagedInformerOptions<T>): MergedInformer<T> {
    const namespaces = this.options.namespaces ?? [];
    const shared = this.options.reflectors === undefined ? {} : { reflectors: this.options.reflectors };
    const informer = new MergedInformer<T>({ ...options, ...shared, namespaces, resource, client: this.client, logger: this.log, metrics: this.metrics });
    this.informers.push(informer);
    return informer;
  }

  /** An informer of objects read as plain KubeObjects: for a controller that parses each object where it reads it. */
  kubeObjectInformer(resource: ResourceType, options: Omit<ManagedInformerOptions<KubeObject>, 'schema'> = {}): MergedInformer<KubeObject> {
    return this.informer(resource, { ...options, schema: checkedKubeObjectSchema });
  }

  /** Builds a controller from its definition; its `enqueue` is the entry point for outside event sources. */
  add(definition: ControllerDefinition): Controller {
    const built = buildController(definition, { logger: this.log, metrics: this.metrics });
    this.controllers.push(built);
    return built;
  }

  eventRecorder(reportingInstance: string, reportingController: string = this.options.name): EventRecorder {
    return new EventRecorder({ client: this.client, reportingController, reportingInstance, logger: this.log });
  }

  isReady(): boolean {
    return this.informers.every((informer) => informer.hasSynced());
  }

  /** This manager's line in /readyz: undefined once its caches are synced. */
  readinessProblem(): string | undefined {
    return this.isReady() ? undefined : 'informer caches not synced yet';
  }

  isLeader(): boolean {
    return this.elector === undefined || this.elector.isLeader();
  }

  /** The probe/metrics port once `run` has started the server. */
  get httpPort(): number | undefined {
    return this.server?.port;
  }

  async run(signal: AbortSignal): Promise<void> {
    const http = this.options.http;
    if (http !== undefined) {
      this.server = await startHttpServer({
        host: http.host ?? '127.0.0.1',
        port: http.port,
        metrics: this.options.registry,
        readiness: [{ name: this.options.name, problem: () => this.readinessProblem() }],
        logger: this.log,
      });
    }
    this.informers.forEach((informer) => informer.start());
    const end = await this.lead(signal);
    await Promise.all(this.informers.map((informer) => informer.stop()));
    await this.server?.close();
    this.log.info({ end }, 'manager stopped');
    if (end === 'lost') throw new LeadershipLostError(this.options.leaderElection?.name ?? this.options.name);
  }

  private async lead(signal: AbortSignal): Promise<ElectionEnd> {
    // Aborted once controllers must no longer be started (stopping, or leadership over).
    const abandoned = new AbortController();
    const abandon = (): void => abandoned.abort();
    let starting: Promise<void> = Promise.resolve();
    const startControllers = (): void => {
      starting = this.startControllersWhenSynced(abandoned.signal);
    };
    if (this.elector === undefined) {
      startControllers();
      await untilAborted(signal);
      abandon();
      await starting;
      await this.stopControllers();
      return 'stopped';
    }
    // The lease is released only after the reconciles in flight finished, so two leaders never overlap.
    const election = new AbortController();
    const onStop = (): void => {
      this.log.info('stopping: finishing reconciles in flight before releasing the lease');
      abandon();
      void starting.then(() => this.stopControllers()).then(() => election.abort());
    };
    signal.addEventListener('abort', onStop, { once: true });
    if (signal.aborted) onStop();
    const end = await this.elector.run(election.signal, { onStartedLeading: startControllers, onStoppedLeading: abandon });
    signal.removeEventListener('abort', onStop);
    await starting;
    await this.stopControllers();
    return end;
  }

  private async startControllersWhenSynced(abandoned: AbortSignal): Promise<void> {
    await Promise.race([Promise.all(this.informers.map((informer) => informer.waitForSync())), untilAborted(abandoned)]);
    if (abandoned.aborted) return;
    this.log.info({ controllers: this.controllers.map((c) => c.name) }, 'caches synced; starting controllers');
    this.controllers.forEach((c) => c.start());
  }

  private async stopControllers(): Promise<void> {
    await Promise.all(this.controllers.map((c) => c.stop()));
  }
}
