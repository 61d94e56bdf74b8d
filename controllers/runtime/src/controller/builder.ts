// The controller builder: what a controller is for, what it owns and watches, and how it reconciles.
//
//   controller('configmap-annotator').for(configMaps).owns(pods).watches(secrets, mapFn).reconcile(fn)
//
// The result is a definition; a Manager (or `buildController`) turns it into a running Controller.
import type { KubeObject, ObjectKey } from '../kube/object.js';
import { keyOf } from '../kube/object.js';
import type { InformerView } from '../informer/merged-informer.js';
import type { InformerEvent } from '../informer/informer-event.js';
import type { BackoffOptions } from '../queue/backoff.js';
import { Controller, type ControllerOptions } from './controller.js';
import { ownerKeysOf, type OwnerMappingOptions } from './owner-mapping.js';
import { reportingFailures, type FailureReportOptions } from './failure-report.js';
import type { Reconciler } from './reconciler.js';

/** Where an informer's events go: the keys to reconcile, and each object seen created. */
export type EventSink = Pick<Controller, 'enqueue' | 'sawCreated'>;

/** Subscribes a controller to one informer; called once when the controller is built. */
export type EventSource = (sink: EventSink) => void;

export interface ControllerDefinition {
  readonly name: string;
  readonly sources: readonly EventSource[];
  readonly reconciler: Reconciler;
  readonly maxConcurrentReconciles: number;
  readonly backoff: BackoffOptions | undefined;
}

/** Which of an informer's updates reach the controller (controller-runtime's update predicate); every one when omitted. */
export interface WatchFilter<T extends KubeObject> {
  readonly updates?: (old: T, object: T) => boolean;
}

function subscribe<T extends KubeObject>(informer: InformerView<T>, toKeys: (object: T) => readonly ObjectKey[], options: WatchFilter<T> = {}): EventSource {
  const { updates } = options;
  return (sink) =>
    informer.subscribe((event: InformerEvent<T>) => {
      if (event.type === 'added') sink.sawCreated(event.object);
      if (event.type === 'updated' && updates !== undefined && !updates(event.old, event.object)) return;
      const objects = event.type === 'updated' ? [event.old, event.object] : [event.object];
      for (const object of objects) toKeys(object).forEach((key) => sink.enqueue(key));
    });
}

export class ControllerBuilder {
  private readonly sources: EventSource[] = [];
  private primary: { group: string; kind: string } | undefined;
  private maxConcurrentReconciles = 1;
  private backoff: BackoffOptions | undefined;
  private failureReport: FailureReportOptions | undefined;

  constructor(private readonly name: string) {}

  /** The primary resource: each of its events enqueues its own key. */
  for<T extends KubeObject>(informer: InformerView<T>): this {
    this.primary = { group: informer.resource.group, kind: informer.resource.kind };
    this.sources.push(subscribe(informer, (object) => [keyOf(object)]));
    return this;
  }

  /** A child resource: each of its events enqueues its controller owner of the primary kind. */
  owns<T extends KubeObject>(informer: InformerView<T>, options: OwnerMappingOptions & WatchFilter<T> = {}): this {
    const primary = this.primary;
    if (primary === undefined) throw new Error(`controller ${this.name}: call for() before owns()`);
    this.sources.push(subscribe(informer, (object) => ownerKeysOf(object, primary, options), options));
    return this;
  }

  /** Any resource, mapped to the keys to reconcile by `map`. */
  watches<T extends KubeObject>(informer: InformerView<T>, map: (object: T) => readonly ObjectKey[], options: WatchFilter<T> = {}): this {
    this.sources.push(subscribe(informer, map, options));
    return this;
  }

  withOptions(options: { maxConcurrentReconciles?: number; backoff?: BackoffOptions }): this {
    this.maxConcurrentReconciles = options.maxConcurrentReconciles ?? this.maxConcurrentReconciles;
    this.backoff = options.backoff ?? this.backoff;
    return this;
  }

  /** Each failed reconcile becomes a Warning Event and a False condition on its object (see failure-report.ts). */
  reportFailures(options: FailureReportOptions): this {
    this.failureReport = options;
    return this;
  }

  reconcile(reconciler: Reconciler): ControllerDefinition {
    return {
      name: this.name,
      sources: [...this.sources],
      reconciler: this.failureReport === undefined ? reconciler : reportingFailures(reconciler, this.failureReport),
      maxConcurrentReconciles: this.maxConcurrentReconciles,
      backoff: this.backoff,
    };
  }
}

export function controller(name: string): ControllerBuilder {
  return new ControllerBuilder(name);
}

/** Makes a Controller from a definition and connects its event sources (it still has to be started). */
export function buildController(
  definition: ControllerDefinition,
  dependencies: Pick<ControllerOptions, 'logger' | 'metrics' | 'clock'>,
): Controller {
  const built = new Controller({
    ...dependencies,
    name: definition.name,
    reconciler: definition.reconciler,
    maxConcurrentReconciles: definition.maxConcurrentReconciles,
    backoff: definition.backoff,
  });
  for (const source of definition.sources) source(built);
  return built;
}
