// The scale controller, started by its own process (main.ts) or beside others in the manager's (controllers/manager):
// its settings from the environment and its wiring into the Manager it is given.
import {
  MANAGED_SELECTOR,
  MEMBER_SELECTOR,
  workloadOfLabels,
  workloadOfStatefulSet,
  ZOOKEEPER_PORTS,
  type ZkEventType,
} from '@zk-oam/apis';
import {
  childToTraits,
  controller,
  controllerModule,
  type ControllerProcessParts,
  type StartedController,
  enqueueTraitsOnFacts,
  eventBusFrom,
  keyOf,
  millisecondsSetting,
  processEnvSchema,
  traitProcessDependencies,
  traitsOfWorkload,
  traitTiming,
  traitTimingSettings,
} from '@zk-oam/runtime';
import { adminConnector, HandleGate, observeEnsemble } from '@zk-oam/zookeeper';
import { type z } from 'zod';
import {
  CACHED_FIELDS,
  CONTROLLER_NAME,
  FIELD_MANAGER,
  LEADER_ELECTION_LEASE,
  NATS_DURABLE,
  REPORTING_CONTROLLER,
  scaleReconciler,
  scaleResource,
  TRAIT_CONTROLLER_NAMES,
  watchedResources,
  workloadResource,
} from './reconcile/index.js';

const configSchema = processEnvSchema.extend({
  ...traitTimingSettings({ idlePeriodMs: 30_000 }),
  /** Budget of each four-letter word and of the committed-config read; the reconfig session gets five times as long. */
  ZOOKEEPER_TIMEOUT_MS: millisecondsSetting(2_000),
});

/** The workload facts a membership step waits on. */
const WORKLOAD_FACTS: readonly ZkEventType[] = ['LeaderChanged', 'MembershipChanged', 'ReadinessChanged'];

/** Wires the scale controller into the Manager it is given: its informers, reconcilers and event bus. */
export function startScaleController(parts: ControllerProcessParts, config: z.infer<typeof configSchema>): StartedController {
  const { manager, log, registry, identity } = parts;
  const traits = manager.kubeObjectInformer(scaleResource);
  const workloads = manager.kubeObjectInformer(workloadResource);
  const statefulSets = manager.kubeObjectInformer(watchedResources.statefulSet, { labelSelector: MANAGED_SELECTOR, transform: CACHED_FIELDS.statefulSet });
  const pods = manager.kubeObjectInformer(watchedResources.pod, { labelSelector: MEMBER_SELECTOR, transform: CACHED_FIELDS.pod });
  const volumes = manager.kubeObjectInformer(watchedResources.persistentVolumeClaim, { labelSelector: MEMBER_SELECTOR, transform: CACHED_FIELDS.persistentVolumeClaim });
  const bus = eventBusFrom(config, { name: CONTROLLER_NAME, registry, log });
  const recorder = manager.eventRecorder(identity, REPORTING_CONTROLLER);
  const adminGate = new HandleGate();

  const reconciler = scaleReconciler({
    caches: { traits: traits.lister, workloads: workloads.lister, statefulSets: statefulSets.lister, pods: pods.lister, volumes: volumes.lister },
    ...traitProcessDependencies({ client: manager.client, log, registry, recorder, bus, observationsPerSecond: config.OBSERVATIONS_PER_SECOND }, TRAIT_CONTROLLER_NAMES),
    observe: (members) => observeEnsemble(members, { clientPort: ZOOKEEPER_PORTS.client, timeoutMs: config.ZOOKEEPER_TIMEOUT_MS }),
    connectAdmin: adminConnector(config.ZOOKEEPER_TIMEOUT_MS * 5, adminGate),
    timing: traitTiming(config),
  });
  const ofMembers = childToTraits(traits.lister, (member) => workloadOfLabels(member.metadata.labels));
  const traitController = manager.add(
    controller('scale')
      .for(traits)
      .watches(workloads, (workload) => traitsOfWorkload(traits.lister, keyOf(workload)))
      .watches(statefulSets, childToTraits(traits.lister, (statefulSet) => workloadOfStatefulSet(statefulSet.metadata.name)))
      .watches(pods, ofMembers)
      .watches(volumes, ofMembers)
      .withOptions({ maxConcurrentReconciles: 4 })
      .reportFailures({ client: manager.client, recorder, resource: scaleResource, conditionType: 'Ready', fieldManager: `${FIELD_MANAGER}-failures`, logger: log })
      .reconcile(reconciler),
  );
  enqueueTraitsOnFacts(bus, { durable: NATS_DURABLE, facts: WORKLOAD_FACTS, traits: traits.lister, controller: traitController });
  log.info({ identity, nats: config.NATS_URL !== undefined, leaderElection: config.LEADER_ELECTION }, 'starting the scale controller');
  return { cleanup: async () => bus?.close() };
}

export const scaleController = controllerModule({ name: CONTROLLER_NAME, leaderElectionLease: LEADER_ELECTION_LEASE }, configSchema, startScaleController);
