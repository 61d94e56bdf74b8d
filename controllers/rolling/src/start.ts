// The rolling controller, started by its own process (main.ts) or beside others in the manager's (controllers/manager):
// its settings from the environment and what sets it apart from the other trait controllers, which the runtime's
// startTraitController wires alike.
import { MANAGED_SELECTOR, MEMBER_SELECTOR, workloadOfLabels, workloadOfStatefulSet, type RollingReason, type ZkEventType } from '@zk-oam/apis';
import {
  controllerModule,
  millisecondsSetting,
  processEnvSchema,
  startTraitController,
  traitTiming,
  traitTimingSettings,
  type ControllerProcessParts,
  type StartedController,
  type WatchedChild,
} from '@zk-oam/runtime';
import { adminConnector, HandleGate, observeEnsemble } from '@zk-oam/zookeeper';
import type { z } from 'zod';
import { CACHED_FIELDS, IDENTITY, rollingReconciler, TRAIT_CONTROLLER_NAMES, watchedResources } from './reconcile/index.js';

/** How soon after a deletion a roll looks again (the pod should be Terminating by then). */
const AFTER_DELETE_MS = 500;

const configSchema = processEnvSchema.extend({
  ...traitTimingSettings({ idlePeriodMs: 60_000 }),
  /** Budget of each four-letter word and of the committed-config read; the reconfig session gets five times as long. */
  ZOOKEEPER_TIMEOUT_MS: millisecondsSetting(2_000),
});

/** The workload facts that can unblock the next step. */
const WORKLOAD_FACTS: readonly ZkEventType[] = ['LeaderChanged', 'MembershipChanged', 'ReadinessChanged', 'TemplateRevisionChanged'];

/**
 * Wires the rolling controller into the Manager it is given: its informers, reconcilers and event bus. It watches the
 * StatefulSet and the member pods, but its reconcile reads them from the apiserver (reconcile/observe.ts).
 */
export function startRollingController(parts: ControllerProcessParts, config: z.infer<typeof configSchema>): StartedController {
  const adminGate = new HandleGate();
  const ofStatefulSet: WatchedChild['workloadOf'] = (statefulSet) => workloadOfStatefulSet(statefulSet.metadata.name);
  return startTraitController<'statefulSets' | 'pods', RollingReason>(parts, config, {
    controller: 'rolling',
    names: TRAIT_CONTROLLER_NAMES,
    facts: WORKLOAD_FACTS,
    children: {
      statefulSets: { resource: watchedResources.statefulSet, labelSelector: MANAGED_SELECTOR, transform: CACHED_FIELDS.statefulSet, metadataOnly: true, workloadOf: ofStatefulSet },
      pods: { resource: watchedResources.pod, labelSelector: MEMBER_SELECTOR, transform: CACHED_FIELDS.pod, metadataOnly: true, workloadOf: (pod) => workloadOfLabels(pod.metadata.labels) },
    },
    reconciler: ({ caches, process }) =>
      rollingReconciler({
        caches: { traits: caches.traits, workloads: caches.workloads },
        ...process,
        observe: (members, access) => observeEnsemble(members, { clientPort: access.port, tls: access.tls, timeoutMs: config.ZOOKEEPER_TIMEOUT_MS }),
        connectAdmin: adminConnector(config.ZOOKEEPER_TIMEOUT_MS * 5, adminGate),
        timing: { ...traitTiming(config), afterDeleteMs: AFTER_DELETE_MS },
      }),
  });
}

/** The rolling trait's settings named otherwise than the scale trait's, before they shared traitTimingSettings. */
const RENAMED_SETTINGS = [
  { old: 'POLL_PERIOD_MS', now: 'STEP_PERIOD_MS' },
  { old: 'RESYNC_PERIOD_MS', now: 'IDLE_PERIOD_MS' },
  { old: 'LOCK_LEASE_SECONDS', now: 'LOCK_DURATION_SECONDS' },
];

export const rollingController = controllerModule(IDENTITY, configSchema, startRollingController, RENAMED_SETTINGS);
