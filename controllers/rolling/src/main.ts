// The rolling controller's process: configuration from the environment (parsed once), then wiring only.
// Exits 0 after SIGTERM/SIGINT (reconciles finished, lease released), 1 when leadership is lost or startup fails.
import { disruptionLeaseName, MANAGED_SELECTOR, MEMBER_SELECTOR, ROLLING_BINDING_ANNOTATION } from '@zk-oam/apis';
import {
  apiVersionOf,
  controller,
  controllerProcess,
  coreResources,
  eventBusFrom,
  eventsToKeys,
  keyOf,
  kubeObjectSchema,
  ObjectLock,
  processEnvSchema,
  RequeuePacer,
  runUntilSignalled,
  TraitBinding,
  TraitStateMetrics,
  traitsOfWorkload,
  type KubeObject,
  type ObjectTransform,
  type ResourceType,
  runMain,
} from '@zk-oam/runtime';
import { adminConnector, HandleGate, observeEnsemble } from '@zk-oam/zookeeper';
import { z } from 'zod';
import {
  CONTROLLER_NAME,
  FIELD_MANAGER,
  LEADER_ELECTION_LEASE,
  NATS_DURABLE,
  REPORTING_CONTROLLER,
  rollingReconciler,
  rollingResource,
  UNBIND_FINALIZER,
  workloadResource,
} from './reconcile/index.js';
import { CACHED_CHILD_FIELDS, traitsOfChild } from './reconcile/trait-keys.js';

const configSchema = processEnvSchema.extend({
  /** How often a roll in progress looks at the ensemble again. */
  POLL_PERIOD_MS: z.coerce.number().int().min(200).default(2_000),
  RESYNC_PERIOD_MS: z.coerce.number().int().min(1_000).default(60_000),
  LOCK_LEASE_SECONDS: z.coerce.number().int().min(5).default(60),
  /** Budget of each four-letter word and of the committed-config read. */
  ZOOKEEPER_TIMEOUT_MS: z.coerce.number().int().min(100).default(2_000),
});

/** Workload facts that can unblock the next step. */
const WORKLOAD_EVENT_TYPES: readonly string[] = ['LeaderChanged', 'MembershipChanged', 'ReadinessChanged', 'TemplateRevisionChanged'];

async function main(): Promise<void> {
  const config = configSchema.parse(process.env);
  const { manager, log, registry, identity } = controllerProcess({ name: CONTROLLER_NAME, leaderElectionLease: LEADER_ELECTION_LEASE }, config);
  const informer = (resource: ResourceType, options: { labelSelector?: string; transform?: ObjectTransform } = {}) =>
    manager.informer<KubeObject>(resource, { schema: kubeObjectSchema, ...options });
  const rollings = informer(rollingResource);
  const workloads = informer(workloadResource);
  const statefulSets = informer(coreResources.statefulSet, { labelSelector: MANAGED_SELECTOR, transform: CACHED_CHILD_FIELDS });
  const pods = informer(coreResources.pod, { labelSelector: MEMBER_SELECTOR, transform: CACHED_CHILD_FIELDS });
  const bus = eventBusFrom(config, { name: CONTROLLER_NAME, registry, log });

  const recorder = manager.eventRecorder(identity, REPORTING_CONTROLLER);
  const adminGate = new HandleGate();
  const reconcile = rollingReconciler({
    client: manager.client,
    caches: { rollings: rollings.lister, workloads: workloads.lister },
    binding: new TraitBinding({
      client: manager.client,
      fieldManager: FIELD_MANAGER,
      traitResource: rollingResource,
      workloadResource,
      bindingAnnotation: ROLLING_BINDING_ANNOTATION,
      finalizer: UNBIND_FINALIZER,
    }),
    lockFor: (workload) =>
      new ObjectLock({
        client: manager.client,
        namespace: workload.metadata.namespace ?? '',
        owner: { apiVersion: apiVersionOf(workloadResource), kind: workloadResource.kind, name: workload.metadata.name, uid: workload.metadata.uid ?? '' },
        leaseName: disruptionLeaseName(workload.metadata.name),
        logger: log,
      }),
    recorder,
    bus: bus ?? { publish: () => Promise.resolve() },
    observe: (members, access) => observeEnsemble(members, { clientPort: access.port, tls: access.tls, timeoutMs: config.ZOOKEEPER_TIMEOUT_MS }),
    connectAdmin: adminConnector(config.ZOOKEEPER_TIMEOUT_MS * 5, adminGate),
    now: () => new Date(),
    source: CONTROLLER_NAME,
    timing: { pollMs: config.POLL_PERIOD_MS, afterDeleteMs: 500, resyncMs: config.RESYNC_PERIOD_MS, lockLeaseSeconds: config.LOCK_LEASE_SECONDS },
    pacer: new RequeuePacer({ perSecond: config.OBSERVATIONS_PER_SECOND }),
    traitMetrics: new TraitStateMetrics(registry, 'ZookeeperRolling'),
  });
  const rolling = manager.add(
    controller('rolling')
      .for(rollings)
      .watches(workloads, (workload) => traitsOfWorkload(rollings.lister, keyOf(workload)))
      .watches(statefulSets, (statefulSet) => traitsOfChild(rollings.lister, statefulSet, 'statefulSet'))
      .watches(pods, (pod) => traitsOfChild(rollings.lister, pod, 'pod'))
      .withOptions({ maxConcurrentReconciles: 4 })
      .reportFailures({ client: manager.client, recorder, resource: rollingResource, conditionType: 'Ready', fieldManager: `${FIELD_MANAGER}-failures`, logger: log })
      .reconcile(reconcile),
  );
  // One filter subject (the stream's): nats-server before 2.10 refuses several; the types are picked here instead.
  const enqueueTraits = eventsToKeys((workload) => traitsOfWorkload(rollings.lister, workload).forEach((key) => rolling.enqueue(key)));
  const subscription = bus?.subscribe({
    durable: NATS_DURABLE,
    handler: (event) => (WORKLOAD_EVENT_TYPES.includes(event.type) ? enqueueTraits(event) : undefined),
  });
  log.info({ identity, nats: config.NATS_URL !== undefined, leaderElection: config.LEADER_ELECTION }, 'starting the rolling controller');
  await runUntilSignalled(
    { manager, log },
    {
      cleanup: async () => {
        await subscription?.close();
        await bus?.close();
      },
    },
  );
}

await runMain(CONTROLLER_NAME, main);
