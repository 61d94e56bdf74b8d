// The znode controller, started by its own process (main.ts) or beside others in the manager's (controllers/manager):
// its settings from the environment and its wiring into the Manager it is given.
import { randomBytes } from 'node:crypto';
import { MEMBER_SELECTOR, workloadOfLabels, type ZnodeReason } from '@zk-oam/apis';
import {
  controller,
  controllerModule,
  keyOf,
  listersOf,
  millisecondsSetting,
  processEnvSchema,
  RequeuePacer,
  WrittenStatuses,
  type ControllerProcessParts,
  type EventRecorder,
  type KubeObject,
  type Lister,
  type ObjectKey,
  type StartedController,
} from '@zk-oam/runtime';
import { tenantAdminConnector } from '@zk-oam/zookeeper';
import type { z } from 'zod';
import { CACHED_FIELDS, IDENTITY, watchedResources, workloadResource, ZNODE_STATUS, znodeKeysOfWorkload, znodeReconciler, znodeResource } from './reconcile/index.js';

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
  const namespaces = manager.kubeObjectInformer(watchedResources.namespace, { transform: CACHED_FIELDS.namespace, metadataOnly: true });
  const recorder: EventRecorder<ZnodeReason> = manager.eventRecorder(identity, IDENTITY.reportingController);

  const reconciler = znodeReconciler({
    caches: listersOf({ traits: znodes, workloads, pods, namespaces }),
    client: manager.client,
    recorder,
    statuses: new WrittenStatuses(ZNODE_STATUS.schema),
    connectTenant: tenantAdminConnector(config.ZOOKEEPER_TIMEOUT_MS),
    pacer: new RequeuePacer({ perSecond: config.OBSERVATIONS_PER_SECOND }),
    timing: { idleMs: config.IDLE_PERIOD_MS, waitMs: config.WAIT_PERIOD_MS, releaseAfterMs: config.RELEASE_WITHOUT_WORKLOAD_AFTER_MS },
    now: () => new Date(),
    newPassword,
  });
  manager.add(
    controller('znode')
      .for(znodes)
      // A workload and its pods wake the znodes naming it from any namespace; a namespace's labels, its own znodes.
      .watches(workloads, (workload) => znodeKeysOfWorkload(znodes.lister, keyOf(workload)))
      .watches(pods, (pod) => podWorkloadKeys(znodes.lister, pod))
      .watches(namespaces, (namespace) => znodes.lister.list({ namespace: namespace.metadata.name }).map(keyOf))
      .withOptions({ maxConcurrentReconciles: 4 })
      .reportFailures({ client: manager.client, recorder, resource: znodeResource, conditionType: 'Synced', fieldManager: `${IDENTITY.fieldManager}-failures`, logger: log })
      .reconcile(reconciler),
  );
  log.info({ identity, leaderElection: config.LEADER_ELECTION }, 'starting the znode controller');
  return {};
}

function podWorkloadKeys(znodes: Lister<KubeObject>, pod: KubeObject): ObjectKey[] {
  const workload = workloadOfLabels(pod.metadata.labels);
  return workload === undefined ? [] : znodeKeysOfWorkload(znodes, { namespace: pod.metadata.namespace ?? '', name: workload });
}

export const znodeController = controllerModule(IDENTITY, configSchema, startZnodeController);
