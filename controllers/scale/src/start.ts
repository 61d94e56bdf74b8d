// The scale controller, started by its own process (main.ts) or beside others in the manager's (controllers/manager):
// its settings from the environment and what sets it apart from the other trait controllers, which the runtime's
// startTraitController wires alike.
import { MANAGED_SELECTOR, MEMBER_SELECTOR, workloadOfLabels, workloadOfStatefulSet, ZOOKEEPER_PORTS, type ScaleReason, type ZkEventType } from '@zk-oam/apis';
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
import { CACHED_FIELDS, IDENTITY, scaleReconciler, TRAIT_CONTROLLER_NAMES, watchedResources } from './reconcile/index.js';

const configSchema = processEnvSchema.extend({
  ...traitTimingSettings({ idlePeriodMs: 30_000 }),
  /** Budget of each four-letter word and of the committed-config read; the reconfig session gets five times as long. */
  ZOOKEEPER_TIMEOUT_MS: millisecondsSetting(2_000),
});

/** The workload facts a membership step waits on. */
const WORKLOAD_FACTS: readonly ZkEventType[] = ['LeaderChanged', 'MembershipChanged', 'ReadinessChanged'];

/** Wires the scale controller into the Manager it is given: its informers, reconcilers and event bus. */
export function startScaleController(parts: ControllerProcessParts, config: z.infer<typeof configSchema>): StartedController {
  const adminGate = new HandleGate();
  const ofStatefulSet: WatchedChild['workloadOf'] = (statefulSet) => workloadOfStatefulSet(statefulSet.metadata.name);
  const ofMembers: WatchedChild['workloadOf'] = (member) => workloadOfLabels(member.metadata.labels);
  return startTraitController<'statefulSets' | 'pods' | 'volumes', ScaleReason>(parts, config, {
    controller: 'scale',
    names: TRAIT_CONTROLLER_NAMES,
    facts: WORKLOAD_FACTS,
    children: {
      statefulSets: { resource: watchedResources.statefulSet, labelSelector: MANAGED_SELECTOR, transform: CACHED_FIELDS.statefulSet, workloadOf: ofStatefulSet },
      pods: { resource: watchedResources.pod, labelSelector: MEMBER_SELECTOR, transform: CACHED_FIELDS.pod, workloadOf: ofMembers },
      volumes: { resource: watchedResources.persistentVolumeClaim, labelSelector: MEMBER_SELECTOR, transform: CACHED_FIELDS.persistentVolumeClaim, metadataOnly: true, workloadOf: ofMembers },
    },
    reconciler: ({ caches, process }) =>
      scaleReconciler({
        caches,
        ...process,
        observe: (members) => observeEnsemble(members, { clientPort: ZOOKEEPER_PORTS.client, timeoutMs: config.ZOOKEEPER_TIMEOUT_MS }),
        connectAdmin: adminConnector(config.ZOOKEEPER_TIMEOUT_MS * 5, adminGate),
        timing: traitTiming(config),
      }),
  });
}

export const scaleController = controllerModule(IDENTITY, configSchema, startScaleController);
