// What a trait controller's process wires the same way whatever the trait: the dependencies of its reconcile that
// come from the process (binding, metrics, the workload's lock, events), and the NATS facts that make its traits
// reconcile sooner. start-trait-controller.ts wires them, given the names that set the controller apart.
import { disruptionLeaseName, type ZkEventType } from '@zk-oam/apis';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Controller } from '../controller/controller.js';
import type { EventBus } from '../events/bus.js';
import { eventsToKeys } from '../events/keys.js';
import type { Lister } from '../informer/store.js';
import type { KubeClient } from '../kube/client.js';
import type { KubeObject } from '../kube/object.js';
import type { ResourceType } from '../kube/resource.js';
import { ObjectLock } from '../lock/object-lock.js';
import { RequeuePacer } from '../queue/requeue-pacer.js';
import type { EventRecorder } from '../recorder/event-recorder.js';
import type { TraitCaches } from './read-trait.js';
import { TraitBinding } from './trait-binding.js';
import type { TraitReconcilerDependencies, TraitTiming } from './trait-reconciler-dependencies.js';
import { TraitStateMetrics } from './trait-state-metrics.js';
import { traitsOfWorkload } from './workload-traits.js';

/** The names that set one trait controller apart; each is remembered outside the process (see its resources.ts). */
export interface TraitControllerNames {
  /** Its name in logs and the `source` of the events it publishes. */
  readonly name: string;
  readonly fieldManager: string;
  /** Its kind names the trait in the trait-state metrics. */
  readonly traitResource: ResourceType;
  readonly workloadResource: ResourceType;
  /** Annotation on the workload naming the bound trait. */
  readonly bindingAnnotation: string;
  /** Finalizer on the trait, so unbinding happens before the trait disappears. */
  readonly unbindFinalizer: string;
  /** The reportingController of its Kubernetes Events. */
  readonly reportingController: string;
  /** The JetStream durable consumer of workload facts: the NATS server keeps its place in the stream by this name. */
  readonly natsDurable: string;
}

export interface TraitProcessParts<WarningReason extends string> {
  readonly client: KubeClient;
  readonly log: Logger;
  readonly registry: Registry;
  readonly recorder: EventRecorder<WarningReason>;
  /** Undefined without NATS: the reconcile's facts are then published nowhere. */
  readonly bus: EventBus | undefined;
  /** How many idle looks a second the process spreads its traits' looks to. */
  readonly observationsPerSecond: number;
}

export type TraitProcessDependencies<WarningReason extends string> = Omit<
  TraitReconcilerDependencies<TraitCaches, WarningReason, TraitTiming, keyof ObjectLock>,
  'caches' | 'timing'
>;

export function traitProcessDependencies<WarningReason extends string>(
  process: TraitProcessParts<WarningReason>,
  names: TraitControllerNames,
): TraitProcessDependencies<WarningReason> {
  const { client, log, registry, recorder, bus } = process;
  const { workloadResource } = names;
  return {
    client,
    binding: new TraitBinding({
      client,
      fieldManager: names.fieldManager,
      traitResource: names.traitResource,
      workloadResource,
      bindingAnnotation: names.bindingAnnotation,
      finalizer: names.unbindFinalizer,
    }),
    traitMetrics: new TraitStateMetrics(registry, names.traitResource.kind),
    lockOf: (workload) => ObjectLock.on(workloadResource, workload, disruptionLeaseName(workload.metadata.name), { client, logger: log }),
    recorder,
    bus: bus ?? { publish: () => Promise.resolve() },
    now: () => new Date(),
    source: names.name,
    pacer: new RequeuePacer({ perSecond: process.observationsPerSecond }),
  };
}

/**
 * Workload facts on NATS only make the traits of that workload reconcile sooner (the watches stay the truth). One
 * filter subject, the stream's: NATS before 2.10 takes one only, so the handler keeps the facts asked for.
 */
export function enqueueTraitsOnFacts(
  bus: EventBus | undefined,
  options: { readonly durable: string; readonly facts: readonly ZkEventType[]; readonly traits: Lister<KubeObject>; readonly controller: Pick<Controller, 'enqueue'> },
): void {
  const { traits, controller, facts } = options;
  const enqueueTraits = eventsToKeys((workload) => traitsOfWorkload(traits, workload).forEach((key) => controller.enqueue(key)));
  bus?.subscribe({ durable: options.durable, handler: (event) => (facts.includes(event.type) ? enqueueTraits(event) : undefined) });
}
