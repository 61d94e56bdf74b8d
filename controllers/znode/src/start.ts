// The znode controller, started by its own process (main.ts) or beside others in the manager's (controllers/manager):
// its settings from the environment and its wiring into the Manager it is given.
import { randomBytes } from 'node:crypto';
import { MEMBER_SELECTOR, workloadOfLabels, type ZnodeReason } from '@zk-oam/apis';
import {
  childToTraits,
  controller,
  controllerModule,
  type ControllerProcessParts,
  type EventRecorder,
  keyOf,
  millisecondsSetting,
  processEnvSchema,
  RequeuePacer,
  type StartedController,
  traitsOfWorkload,
} from '@zk-oam/runtime';
import { tenantAdminConnector } from '@zk-oam/zookeeper';
import type { z } from 'zod';
import {
  CACHED_FIELDS,
  CONTROLLER_NAME,
  FIELD_MANAGER,
  LEADER_ELECTION_LEASE,
  REPORTING_CONTROLLER,
  watchedResources,
  workloadResource,
  znodeReconciler,
  znodeResource,
} from './reconcile/index.js';

const configSchema = processEnvSchema.extend({
  /** Between looks at a Ready znode: the path is still there, with its ACL. */
  IDLE_PERIOD_MS: millisecondsSetting(60_000),
  /** Between looks while waiting for the workload, its members, or their restart onto a tenant's user. */
  WAIT_PERIOD_MS: millisecondsSetting(5_000),
  /** How long a deleted znode waits for a missing workload before its finalizer goes anyway. */
  RELEASE_WITHOUT_WORKLOAD_AFTER_MS: millisecondsSetting(60_000),
  /** Budget of the admin session's connect; each call gets 30 s. */
  ZOOKEEPER_TIMEOUT_MS: millisecondsSetting(10_000),
});

/** 24 random bytes as base64url: letters, digits, "-" and "_", which a JAAS file carries as they are. */
function newPassword(): string {
  return randomBytes(24).toString('base64url');
}

/** Wires the znode controller into the Manager it is given: its informers and reconciler. */
export function startZnodeController(parts: ControllerProcessParts, config: z.infer<typeof configSchema>): StartedController {
  const { manager, log, identity } = parts;
  const znodes = manager.kubeObjectInformer(znodeResource);
  const workloads = manager.kubeObjectInformer(workloadResource);
  const pods = manager.kubeObjectInformer(watchedResources.pod, { labelSelector: MEMBER_SELECTOR, transform: CACHED_FIELDS.pod });
  const recorder: EventRecorder<ZnodeReason> = manager.eventRecorder(identity, REPORTING_CONTROLLER);

  const reconciler = znodeReconciler({
    caches: { traits: znodes.lister, workloads: workloads.lister, pods: pods.lister },
    client: manager.client,
    recorder,
    connectTenant: tenantAdminConnector(config.ZOOKEEPER_TIMEOUT_MS),
    pacer: new RequeuePacer({ perSecond: config.OBSERVATIONS_PER_SECOND }),
    timing: { idleMs: config.IDLE_PERIOD_MS, waitMs: config.WAIT_PERIOD_MS, releaseAfterMs: config.RELEASE_WITHOUT_WORKLOAD_AFTER_MS },
    now: () => new Date(),
    newPassword,
  });
  manager.add(
    controller('znode')
      .for(znodes)
      .watches(workloads, (workload) => traitsOfWorkload(znodes.lister, keyOf(workload)))
      .watches(pods, childToTraits(znodes.lister, (pod) => workloadOfLabels(pod.metadata.labels)))
      .withOptions({ maxConcurrentReconciles: 4 })
      .reportFailures({ client: manager.client, recorder, resource: znodeResource, conditionType: 'Synced', fieldManager: `${FIELD_MANAGER}-failures`, logger: log })
      .reconcile(reconciler),
  );
  log.info({ identity, leaderElection: config.LEADER_ELECTION }, 'starting the znode controller');
  return {};
}

export const znodeController = controllerModule({ name: CONTROLLER_NAME, leaderElectionLease: LEADER_ELECTION_LEASE }, configSchema, startZnodeController);
