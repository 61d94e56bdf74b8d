// The backup controller, started by its own process (main.ts) or beside others in the manager's (controllers/manager):
// its settings from the environment and its wiring into the Manager it is given.
import { MEMBER_SELECTOR, workloadOfLabels, type BackupReason } from '@zk-oam/apis';
import {
  childToTraits,
  controller,
  controllerModule,
  keyOf,
  listersOf,
  millisecondsSetting,
  processEnvSchema,
  traitsOfWorkload,
  type ControllerProcessParts,
  type EventRecorder,
  type StartedController,
} from '@zk-oam/runtime';
import { treeDumperConnector } from '@zk-oam/zookeeper';
import { z } from 'zod';
import { backupReconciler, backupResource, CACHED_FIELDS, IDENTITY, watchedResources, workloadResource } from './reconcile/index.js';
import { backupImageSetting } from './store/open-pvc-target.js';

const configSchema = processEnvSchema.extend({
  /** Between looks while no run is due: retention by age, a workload that comes back. */
  IDLE_PERIOD_MS: millisecondsSetting(300_000),
  /** Between looks while a due run waits for the workload or its members. */
  WAIT_PERIOD_MS: millisecondsSetting(10_000),
  /** Budget of the dump session's connect; each call gets 30 s. */
  ZOOKEEPER_TIMEOUT_MS: millisecondsSetting(10_000),
  /** Walks of the tree a run may take before znodes changing under it fail it. */
  DUMP_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  /** The backup image (this controller's), whose volume server a PersistentVolumeClaim target's Job runs. */
  BACKUP_IMAGE: backupImageSetting,
});

/** Wires the backup controller into the Manager it is given: its informers and reconciler. */
export function startBackupController(parts: ControllerProcessParts, config: z.infer<typeof configSchema>): StartedController {
  const { manager, log, identity } = parts;
  const backups = manager.kubeObjectInformer(backupResource);
  const workloads = manager.kubeObjectInformer(workloadResource);
  const pods = manager.kubeObjectInformer(watchedResources.pod, { labelSelector: MEMBER_SELECTOR, transform: CACHED_FIELDS.pod });
  const recorder: EventRecorder<BackupReason> = manager.eventRecorder(identity, IDENTITY.reportingController);

  const reconciler = backupReconciler({
    caches: listersOf({ traits: backups, workloads, pods }),
    client: manager.client,
    recorder,
    connectDumper: treeDumperConnector(config.ZOOKEEPER_TIMEOUT_MS),
    // The S3 client is loaded with the first store opened: a controller with no backup to take does not carry it.
    openStore: async (options) => (await import('./store/s3.js')).s3Store(options),
    volumeImage: config.BACKUP_IMAGE,
    timing: { idleMs: config.IDLE_PERIOD_MS, waitMs: config.WAIT_PERIOD_MS, dumpAttempts: config.DUMP_ATTEMPTS },
    now: () => new Date(),
  });
  manager.add(
    controller('backup')
      .for(backups)
      .watches(workloads, (workload) => traitsOfWorkload(backups.lister, keyOf(workload)))
      .watches(pods, childToTraits(backups.lister, (pod) => workloadOfLabels(pod.metadata.labels)))
      .withOptions({ maxConcurrentReconciles: 2 })
      .reportFailures({ client: manager.client, recorder, resource: backupResource, conditionType: 'Ready', fieldManager: `${IDENTITY.fieldManager}-failures`, logger: log })
      .reconcile(reconciler),
  );
  log.info({ identity, leaderElection: config.LEADER_ELECTION }, 'starting the backup controller');
  return {};
}

export const backupController = controllerModule(IDENTITY, configSchema, startBackupController);
