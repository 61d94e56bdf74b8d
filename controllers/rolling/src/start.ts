// The rolling controller, started by its own process (main.ts) or beside others in the manager's (controllers/manager):
// its settings from the environment and its wiring into the Manager it is given.
import {
  MANAGED_SELECTOR,
  MEMBER_SELECTOR,
  workloadOfLabels,
  workloadOfStatefulSet,
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
  rollingReconciler,
  rollingResource,
  TRAIT_CONTROLLER_NAMES,
  watchedResources,
  workloadResource,
} from './reconcile/index.js';

/** How soon after a deletion a roll looks again (the pod should be Terminating by then). */
const AFTER_DELETE_MS = 500;

const configSchema = processEnvSchema.extend({
  ...traitTimingSettings({ idlePeriodMs: 60_000 }),
  /** Budget of each four-letter word and of the committed-config read; the reconfig session gets five times as long. */
  ZOOKEEPER_TIMEOUT_MS: millisecondsSetting(2_000),
});

/** The workload facts that can unblock the next step. */
const WORKLOAD_FACTS: readonly ZkEventType[] = ['LeaderChanged', 'MembershipChanged', 'ReadinessChanged', 'TemplateRevisionChanged'];

/** Wires the rolling controller into the Manager it is given: its informers, reconcilers and event bus. */
export function startRollingController(parts: ControllerProcessParts, config: z.infer<typeof configSchema>): StartedController {
  const { manager, log, registry, identity } = parts;
  const traits = manager.kubeObjectInformer(rollingResource);
  const workloads = manager.kubeObjectInformer(workloadResource);
  const statefulSets = manager.kubeObjectInformer(watchedResources.statefulSet, { labelSelector: MANAGED_SELECTOR, transform: CACHED_FIELDS.statefulSet });
  const pods = manager.kubeObjectInformer(watchedResources.pod, { labelSelector: MEMBER_SELECTOR, transform: CACHED_FIELDS.pod });
  const bus = eventBusFrom(config, { name: CONTROLLER_NAME, registry, log });
  const recorder = manager.eventRecorder(identity, REPORTING_CONTROLLER);
  const adminGate = new HandleGate();

  const reconciler = rollingReconciler({
    caches: { traits: traits.lister, workloads: workloads.lister },
    ...traitProcessDependencies({ client: manager.client, log, registry, recorder, bus, observationsPerSecond: config.OBSERVATIONS_PER_SECOND }, TRAIT_CONTROLLER_NAMES),
    observe: (members, access) => observeEnsemble(members, { clientPort: access.port, tls: access.tls, timeoutMs: config.ZOOKEEPER_TIMEOUT_MS }),
    connectAdmin: adminConnector(config.ZOOKEEPER_TIMEOUT_MS * 5, adminGate),
    timing: { ...traitTiming(config), afterDeleteMs: AFTER_DELETE_MS },
  });
  const traitController = manager.add(
    controller('rolling')
      .for(traits)
      .watches(workloads, (workload) => traitsOfWorkload(traits.lister, keyOf(workload)))
      .watches(statefulSets, childToTraits(traits.lister, (statefulSet) => workloadOfStatefulSet(statefulSet.metadata.name)))
      .watches(pods, childToTraits(traits.lister, (pod) => workloadOfLabels(pod.metadata.labels)))
      .withOptions({ maxConcurrentReconciles: 4 })
      .reportFailures({ client: manager.client, recorder, resource: rollingResource, conditionType: 'Ready', fieldManager: `${FIELD_MANAGER}-failures`, logger: log })
      .reconcile(reconciler),
  );
  enqueueTraitsOnFacts(bus, { durable: NATS_DURABLE, facts: WORKLOAD_FACTS, traits: traits.lister, controller: traitController });
  log.info({ identity, nats: config.NATS_URL !== undefined, leaderElection: config.LEADER_ELECTION }, 'starting the rolling controller');
  return { cleanup: async () => bus?.close() };
}

/** The rolling trait's settings named otherwise than the scale trait's, before they shared traitTimingSettings. */
const RENAMED_SETTINGS = [
  { old: 'POLL_PERIOD_MS', now: 'STEP_PERIOD_MS' },
  { old: 'RESYNC_PERIOD_MS', now: 'IDLE_PERIOD_MS' },
  { old: 'LOCK_LEASE_SECONDS', now: 'LOCK_DURATION_SECONDS' },
];

export const rollingController = controllerModule({ name: CONTROLLER_NAME, leaderElectionLease: LEADER_ELECTION_LEASE }, configSchema, startRollingController, RENAMED_SETTINGS);
