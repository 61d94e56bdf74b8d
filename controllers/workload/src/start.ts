// The workload controller, started by its own process (main.ts) or beside others in the manager's (controllers/manager):
// its settings from the environment and its wiring into the Manager it is given.
import { derivedNames, INSTANCE_LABEL, MANAGED_SELECTOR, MEMBER_SELECTOR } from '@zk-oam/apis';
import {
  controller,
  controllerModule,
  coreResources,
  eventBusFrom,
  keptFieldsChanged,
  keptFieldsChangedIn,
  keyOf,
  listersOf,
  processEnvSchema,
  RequeuePacer,
  WrittenStatuses,
  type ControllerProcessParts,
  type KubeObject,
  type StartedController,
} from '@zk-oam/runtime';
import { backupImageSetting } from '@zk-oam/backup/store';
import { observeEnsemble, treeRestorerConnector } from '@zk-oam/zookeeper';
import { z } from 'zod';
import { LatestObservations, observationResponder } from './observations/index.js';
import {
  ApiDiscovery,
  CACHED_CHILD_FIELDS,
  certificateResource,
  childResources,
  IDENTITY,
  NAMED_SECRET_FIELDS,
  prometheusRuleResource,
  READ_POD_FIELDS,
  RenderedHashes,
  SecretReaders,
  serviceMonitorResource,
  WORKLOAD_STATUS,
  workloadReconciler,
  workloadResource,
} from './reconcile/index.js';

const configSchema = processEnvSchema.extend({
  /** Between looks at a Ready, unchanged ensemble (which has no watch); while anything moves, every 3 s. */
  IDLE_PERIOD_MS: z.coerce.number().int().min(1_000).default(10_000),
  MONITORING_DISCOVERY_TTL_MS: z.coerce.number().int().min(1_000).default(60_000),
  /** The backup image, whose volume server reads a PersistentVolumeClaim target for a restore. */
  BACKUP_IMAGE: backupImageSetting,
});

/** Budget of the restore session's connect: a member not in a quorum yet answers no session. */
const RESTORE_CONNECT_TIMEOUT_MS = 5_000;

function podToWorkload(pod: KubeObject): { namespace: string; name: string }[] {
  const instance = pod.metadata.labels?.[INSTANCE_LABEL];
  return instance === undefined ? [] : [{ namespace: pod.metadata.namespace ?? '', name: instance }];
}

/**
 * The member Secret cert-manager writes has no owner reference to the workload, only the labels the Certificate's
 * secretTemplate asks for: its changes (issuance, renewal) enqueue the workload by them.
 */
function memberSecretToWorkload(secret: KubeObject): { namespace: string; name: string }[] {
  return podToWorkload(secret).filter((key) => derivedNames(key.name).tlsSecret === secret.metadata.name);
}

/**
 * The children whose cache holds only what the reconcile reads pass on only the updates that change it: not the
 * scheduler's retries on a pod that cannot be placed, nor a StatefulSet's or a disruption budget's counts kept by
 * nobody. Secrets pass every update: the reconcile reads their resourceVersion, and a change of a named Secret's data
 * moves nothing else its metadata-only cache keeps.
 */
const readChanges = { updates: keptFieldsChanged };

/** The pod cache keeps what every controller reads of a member (MEMBER_POD_FIELDS): only the reconcile's part counts. */
const readPodChanges = { updates: keptFieldsChangedIn(READ_POD_FIELDS) };

/** Wires the workload controller into the Manager it is given: its informers, reconcilers and event bus. */
export function startWorkloadController(parts: ControllerProcessParts, config: z.infer<typeof configSchema>): StartedController {
  const { manager, log, registry, identity } = parts;
  const children = (resource: typeof workloadResource, kept: keyof typeof CACHED_CHILD_FIELDS, labelSelector: string, options: { metadataOnly?: boolean } = {}) =>
    manager.kubeObjectInformer(resource, { labelSelector, transform: CACHED_CHILD_FIELDS[kept], ...options });
  const workloads = manager.kubeObjectInformer(workloadResource);
  const statefulSets = children(childResources.statefulSet, 'statefulSet', MANAGED_SELECTOR);
  const configMaps = children(childResources.configMap, 'configMap', MANAGED_SELECTOR);
  // Their caches keep metadata alone, so their watches send no more.
  const services = children(childResources.service, 'service', MANAGED_SELECTOR, { metadataOnly: true });
  const podDisruptionBudgets = children(childResources.podDisruptionBudget, 'podDisruptionBudget', MANAGED_SELECTOR, { metadataOnly: true });
  const secrets = children(coreResources.secret, 'secret', MANAGED_SELECTOR);
  // Every Secret's metadata, never its data: a user's Secret named in a spec carries no label of ours.
  const secretMetadata = manager.kubeObjectInformer(coreResources.secret, { metadataOnly: true, transform: NAMED_SECRET_FIELDS });
  const pods = children(childResources.pod, 'pod', MEMBER_SELECTOR);
  const secretReaders = new SecretReaders();
  workloads.subscribe(secretReaders.observe);
  const bus = eventBusFrom(config, { name: IDENTITY.name, registry, log });
  const ttlMs = config.MONITORING_DISCOVERY_TTL_MS;
  // A kind installed or removed changes what every workload renders (monitoring children) or waits for (cert-manager).
  const lookAgainAtAll = (): void => {
    for (const workload of workloads.lister.list()) workloadController.enqueue(keyOf(workload));
  };
  const monitoring = new ApiDiscovery({ client: manager.client, resources: [serviceMonitorResource, prometheusRuleResource], ttlMs, onChange: lookAgainAtAll });
  const certManager = new ApiDiscovery({ client: manager.client, resources: [certificateResource], ttlMs, onChange: lookAgainAtAll });

  const observations = new LatestObservations();
  bus?.respond(observationResponder(observations, () => manager.isLeader()));
  const recorder = manager.eventRecorder(identity, IDENTITY.reportingController);
  const reconcile = workloadReconciler({
    client: manager.client,
    caches: listersOf({ workloads, statefulSets, configMaps, services, podDisruptionBudgets, secrets, secretMetadata, pods }),
    recorder,
    bus: bus ?? { publish: () => Promise.resolve() },
    monitoringServed: () => monitoring.served(),
    certManagerServed: () => certManager.served(),
    observe: (members, access) => observeEnsemble(members, { clientPort: access.port, tls: access.tls, timeoutMs: 2_000 }),
    observations,
    renderedHashes: new RenderedHashes(),
    statuses: new WrittenStatuses(WORKLOAD_STATUS.schema),
    now: () => new Date(),
    source: IDENTITY.name,
    periods: { readyMs: config.IDLE_PERIOD_MS, progressingMs: 3_000 },
    pacer: new RequeuePacer({ perSecond: config.OBSERVATIONS_PER_SECOND }),
    restore: {
      // The S3 client is loaded with the first restore: a controller that restores nothing does not carry it.
      openStore: async (options) => (await import('@zk-oam/backup/store/s3')).s3Store(options),
      volumeImage: config.BACKUP_IMAGE,
      connectRestorer: treeRestorerConnector(RESTORE_CONNECT_TIMEOUT_MS),
    },
  });
  const workloadController = manager.add(
    controller('workload')
      .for(workloads)
      .owns(statefulSets, readChanges)
      .owns(configMaps, readChanges)
      .owns(services, readChanges)
      .owns(podDisruptionBudgets, readChanges)
      .owns(secrets)
      .watches(secrets, memberSecretToWorkload)
      .watches(secretMetadata, secretReaders.of)
      .watches(pods, podToWorkload, readPodChanges)
      .withOptions({ maxConcurrentReconciles: 4 })
      .reportFailures({ client: manager.client, recorder, resource: workloadResource, conditionType: 'Ready', fieldManager: `${IDENTITY.fieldManager}-failures`, logger: log })
      .reconcile(reconcile),
  );
  log.info({ identity, nats: config.NATS_URL !== undefined, leaderElection: config.LEADER_ELECTION }, 'starting the workload controller');
  return {
    cleanup: async () => {
      monitoring.stop();
      certManager.stop();
      await bus?.close();
    },
  };
}

/** The workload's setting named otherwise than the other controllers' for the same role. */
const RENAMED_SETTINGS = [{ old: 'OBSERVE_PERIOD_MS', now: 'IDLE_PERIOD_MS' }];

export const workloadController = controllerModule(IDENTITY, configSchema, startWorkloadController, RENAMED_SETTINGS);
