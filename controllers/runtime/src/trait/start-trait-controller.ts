// What every trait controller's start does the same way, whatever the trait: the informers of its traits, of their
// workloads and of the workload's children it watches; its event bus and Event recorder; the dependencies of its
// reconcile that come from the process; a controller that reconciles a trait on a change of any of them, its failures
// reported on the trait's Ready condition; and the NATS facts that make a workload's traits reconcile sooner. The
// trait's start.ts names what sets it apart: its names, its children, its facts and its reconciler.
import type { ZkEventType } from '@zk-oam/apis';
import { controller } from '../controller/builder.js';
import type { Reconciler } from '../controller/reconciler.js';
import type { Informer } from '../informer/informer.js';
import { listersOf, type Listers } from '../informer/store.js';
import { keyOf, type KubeObject } from '../kube/object.js';
import type { ResourceType } from '../kube/resource.js';
import type { StartedController } from '../manager/controller-module.js';
import type { ManagedInformerOptions } from '../manager/manager.js';
import { eventBusFrom, type ControllerProcessParts, type ProcessEnv } from '../manager/process.js';
import { enqueueTraitsOnFacts, traitProcessDependencies, type TraitControllerNames, type TraitProcessDependencies } from './trait-process.js';
import { childToTraits, traitsOfWorkload } from './workload-traits.js';

/** A kind of the workload's objects a trait controller watches: a change of one reconciles the traits of its workload. */
export interface WatchedChild {
  readonly resource: ResourceType;
  readonly labelSelector: string;
  /** What the cache keeps of each object. */
  readonly transform: ManagedInformerOptions<KubeObject>['transform'];
  /** Lists and watches metadata only: for a kind whose cache keeps nothing more, so its events cost a fraction. */
  readonly metadataOnly?: boolean;
  /** The workload the object belongs to (by the workload's contract), or undefined. */
  readonly workloadOf: (child: KubeObject) => string | undefined;
}

/** The caches of a trait controller: its traits, their workloads, and each kind of child it watches. */
export type TraitControllerCaches<Child extends string> = Listers<'traits' | 'workloads' | Child>;

export interface TraitControllerSpec<Child extends string, WarningReason extends string> {
  /** Its controller's name in logs and metrics (`controller=<name>`). */
  readonly controller: string;
  readonly names: TraitControllerNames;
  /** The workload facts on NATS that may let a trait's next step go. */
  readonly facts: readonly ZkEventType[];
  /** The workload's objects it watches, by the name its caches give them, in the order they are watched. */
  readonly children: Readonly<Record<Child, WatchedChild>>;
  readonly reconciler: (wiring: { readonly caches: TraitControllerCaches<Child>; readonly process: TraitProcessDependencies<WarningReason> }) => Reconciler;
}

/** Wires a trait controller into the Manager `parts` holds. */
export function startTraitController<Child extends string, WarningReason extends string>(
  parts: ControllerProcessParts,
  config: ProcessEnv,
  spec: TraitControllerSpec<Child, WarningReason>,
): StartedController {
  const { manager, log, registry, identity } = parts;
  const { names } = spec;
  const traits = manager.kubeObjectInformer(names.traitResource);
  const workloads = manager.kubeObjectInformer(names.workloadResource);
  const children = Object.entries<WatchedChild>(spec.children).map(([name, child]) => ({
    name,
    child,
    informer: manager.kubeObjectInformer(child.resource, { labelSelector: child.labelSelector, transform: child.transform, metadataOnly: child.metadataOnly }),
  }));
  const bus = eventBusFrom(config, { name: names.name, registry, log });
  const recorder = manager.eventRecorder(identity, names.reportingController);

  const informers = { traits, workloads, ...Object.fromEntries(children.map(({ name, informer }) => [name, informer])) } as Record<'traits' | 'workloads' | Child, Informer<KubeObject>>;
  const caches: TraitControllerCaches<Child> = listersOf(informers);
  const process = traitProcessDependencies<WarningReason>({ client: manager.client, log, registry, recorder, bus, observationsPerSecond: config.OBSERVATIONS_PER_SECOND }, names);
  const builder = controller(spec.controller)
    .for(traits)
    .watches(workloads, (workload) => traitsOfWorkload(traits.lister, keyOf(workload)));
  for (const { child, informer } of children) builder.watches(informer, childToTraits(traits.lister, child.workloadOf));
  const traitController = manager.add(
    builder
      .withOptions({ maxConcurrentReconciles: 4 })
      .reportFailures({ client: manager.client, recorder, resource: names.traitResource, conditionType: 'Ready', fieldManager: `${names.fieldManager}-failures`, logger: log })
      .reconcile(spec.reconciler({ caches, process })),
  );
  enqueueTraitsOnFacts(bus, { durable: names.natsDurable, facts: spec.facts, traits: traits.lister, controller: traitController });
  log.info({ identity, nats: config.NATS_URL !== undefined, leaderElection: config.LEADER_ELECTION }, `starting the ${spec.controller} controller`);
  return { cleanup: async () => bus?.close() };
}
