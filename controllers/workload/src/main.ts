// The workload controller's process: configuration from the environment (parsed once), then wiring only.
// Exits 0 after SIGTERM/SIGINT (reconciles finished, lease released), 1 when leadership is lost or startup fails.
import { hostname } from 'node:os';
import { KubeConfig } from '@kubernetes/client-node';
import {
  controller,
  coreResources,
  createLogger,
  eventBusFromEnvironment,
  kubeObjectSchema,
  Manager,
  natsEnvironmentSchema,
  runUntilSignalled,
  type KubeObject,
} from '@zk-oam/runtime';
import { observeEnsemble } from '@zk-oam/zookeeper';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { z } from 'zod';
import { PORTS } from './render/layout.js';
import { childResources, FIELD_MANAGER, MonitoringDiscovery, workloadReconciler, workloadResource } from './reconcile/index.js';

const optionalText = z.string().min(1).optional();

const configSchema = natsEnvironmentSchema.extend({
  KUBECONFIG: optionalText,
  METRICS_PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  HEALTH_HOST: z.string().min(1).default('127.0.0.1'),
  LEADER_ELECTION: z.enum(['true', 'false']).default('true'),
  LEADER_ELECTION_NAMESPACE: z.string().min(1).default('zk-oam-system'),
  LEADER_ELECTION_NAME: z.string().min(1).default(FIELD_MANAGER),
  POD_NAME: optionalText,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  OBSERVE_PERIOD_MS: z.coerce.number().int().min(1_000).default(10_000),
  MONITORING_DISCOVERY_TTL_MS: z.coerce.number().int().min(1_000).default(60_000),
});
type Config = z.infer<typeof configSchema>;

/** Members' pods, by the labels every rendered pod carries. */
const MEMBER_POD_SELECTOR = 'app.kubernetes.io/managed-by=zk-oam,app.kubernetes.io/component=server';
const MANAGED_SELECTOR = 'app.kubernetes.io/managed-by=zk-oam';
const INSTANCE_LABEL = 'app.kubernetes.io/instance';

function loadKubeConfig(config: Config): KubeConfig {
  const kubeConfig = new KubeConfig();
  if (config.KUBECONFIG === undefined) kubeConfig.loadFromCluster();
  else kubeConfig.loadFromFile(config.KUBECONFIG);
  return kubeConfig;
}

function podToWorkload(pod: KubeObject): { namespace: string; name: string }[] {
  const instance = pod.metadata.labels?.[INSTANCE_LABEL];
  return instance === undefined ? [] : [{ namespace: pod.metadata.namespace ?? '', name: instance }];
}

async function main(): Promise<void> {
  const config = configSchema.parse(process.env);
  const identity = config.POD_NAME ?? `${hostname()}-${process.pid}`;
  const log = createLogger({ name: FIELD_MANAGER, level: config.LOG_LEVEL });
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const kubeConfig = loadKubeConfig(config);
  const manager = new Manager({
    name: FIELD_MANAGER,
    kubeConfig,
    logger: log,
    registry,
    http: { port: config.METRICS_PORT, host: config.HEALTH_HOST },
    ...(config.LEADER_ELECTION === 'true'
      ? { leaderElection: { namespace: config.LEADER_ELECTION_NAMESPACE, name: config.LEADER_ELECTION_NAME, identity } }
      : {}),
  });
  const informer = (resource: typeof workloadResource, labelSelector?: string) =>
    manager.informer<KubeObject>(resource, { schema: kubeObjectSchema, ...(labelSelector === undefined ? {} : { labelSelector }) });
  const workloads = informer(workloadResource);
  const statefulSets = informer(childResources.statefulSet, MANAGED_SELECTOR);
  const configMaps = informer(childResources.configMap, MANAGED_SELECTOR);
  const services = informer(childResources.service, MANAGED_SELECTOR);
  const podDisruptionBudgets = informer(childResources.podDisruptionBudget, MANAGED_SELECTOR);
  const secrets = informer(coreResources.secret, MANAGED_SELECTOR);
  const pods = informer(childResources.pod, MEMBER_POD_SELECTOR);
  const bus = eventBusFromEnvironment(config, { name: FIELD_MANAGER, registry, log });
  const discovery = new MonitoringDiscovery({ client: manager.client, ttlMs: config.MONITORING_DISCOVERY_TTL_MS });

  const reconcile = workloadReconciler({
    client: manager.client,
    caches: {
      workloads: workloads.lister,
      statefulSets: statefulSets.lister,
      configMaps: configMaps.lister,
      services: services.lister,
      podDisruptionBudgets: podDisruptionBudgets.lister,
      secrets: secrets.lister,
      pods: pods.lister,
    },
    recorder: manager.eventRecorder(identity, 'zookeeper.zkoam.dev/workload'),
    bus: bus ?? { publish: () => Promise.resolve() },
    monitoringServed: () => discovery.served(),
    observe: (members) => observeEnsemble(members, { clientPort: PORTS.client, timeoutMs: 2_000 }),
    now: () => new Date(),
    source: FIELD_MANAGER,
    periods: { readyMs: config.OBSERVE_PERIOD_MS, progressingMs: 3_000 },
  });
  manager.add(
    controller('workload')
      .for(workloads)
      .owns(statefulSets)
      .owns(configMaps)
      .owns(services)
      .owns(podDisruptionBudgets)
      .owns(secrets)
      .watches(pods, podToWorkload)
      .withOptions({ maxConcurrentReconciles: 4 })
      .reconcile(reconcile),
  );
  log.info({ identity, nats: config.NATS_URL !== undefined, leaderElection: config.LEADER_ELECTION }, 'starting the workload controller');
  await runUntilSignalled(manager, { log, cleanup: async () => bus?.close() });
}

await main();
