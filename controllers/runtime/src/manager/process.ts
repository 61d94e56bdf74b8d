// What every deployable's process shares: the environment it reads (parsed once), its Manager and optional NATS event
// bus made from it, and running that Manager to an exit code. Keeps each controller's main.ts to its own settings and
// its wiring.
import { isIPv6 } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { DNS_LABEL_PATTERN } from '@zk-oam/apis';
import { z } from 'zod';
import { connectEventBus, type EventBus } from '../events/index.js';
import { PooledKubeConfig } from '../kube/pooled-kube-config.js';
import { createLogger } from '../logging/logger.js';
import type { ReflectorPool } from '../informer/reflector-pool.js';
import { LeadershipLostError, Manager } from './manager.js';
import { abortOnSignals } from './signals.js';

const optionalText = z.string().min(1).optional();

/** A controller's duration setting in milliseconds, from the environment: an integer of at least 100, else `fallback`. */
export const millisecondsSetting = (fallback: number): z.ZodDefault<z.ZodCoercedNumber<unknown>> => z.coerce.number().int().min(100).default(fallback);

const namespaceName = z.string().regex(DNS_LABEL_PATTERN, {
  error: (issue) =>
    `${JSON.stringify(issue.input)} is not a namespace name (a DNS-1123 label): WATCH_NAMESPACE must be namespace names separated by commas, or unset to watch every namespace`,
});

/** The settings every controller process takes from its environment; a controller extends it with its own. */
export const processEnvSchema = z.object({
  /** Unset in a pod: the in-cluster ServiceAccount is used. */
  KUBECONFIG: optionalText,
  /** The in-cluster API address, set by the kubelet in every pod. */
  KUBERNETES_SERVICE_HOST: optionalText,
  KUBERNETES_SERVICE_PORT: optionalText,
  /** Where the pod's ServiceAccount token, CA and namespace are mounted. */
  SERVICE_ACCOUNT_DIR: z.string().min(1).default('/var/run/secrets/kubernetes.io/serviceaccount'),
  /** No event bus when unset: the controller runs on watches and resyncs alone. */
  NATS_URL: optionalText,
  NATS_USER: optionalText,
  NATS_PASSWORD: optionalText,
  NATS_TLS_CA_FILE: optionalText,
  NATS_TLS_CERT_FILE: optionalText,
  NATS_TLS_KEY_FILE: optionalText,
  METRICS_PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  HEALTH_HOST: z.string().min(1).default('127.0.0.1'),
  LEADER_ELECTION: z.enum(['true', 'false']).default('true'),
  LEADER_ELECTION_NAMESPACE: z.string().min(1).default('zk-oam-system'),
  /** Defaults to the controller's own leader-election Lease (ProcessNames). */
  LEADER_ELECTION_NAME: optionalText,
  POD_NAME: optionalText,
  /**
   * Watch and act in these namespaces alone (comma-separated), so RBAC can be granted there only; every namespace when
   * unset. A namespace named twice is watched once.
   */
  WATCH_NAMESPACE: z
    .string()
    .transform((list) => list.split(',').map((namespace) => namespace.trim()))
    .pipe(z.array(namespaceName))
    .transform((namespaces) => [...new Set(namespaces)])
    .optional(),
  /** Timed looks (those no watch asks for) falling due per second in this process, for its RequeuePacer. */
  OBSERVATIONS_PER_SECOND: z.coerce.number().min(0.1).max(1_000).default(20),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});
export type ProcessEnv = z.infer<typeof processEnvSchema>;

/**
 * What a controller process is called, one name per role: each is remembered outside the process (logs and dashboards,
 * the Lease in the cluster), so each stays as it is even when a controller gives two of them one value.
 */
export interface ProcessNames {
  /** Its name in logs and the Manager's. */
  readonly name: string;
  /** The Lease its replicas elect their leader by, unless LEADER_ELECTION_NAME names another. */
  readonly leaderElectionLease: string;
}

export interface ControllerProcessParts {
  readonly manager: Manager;
  readonly log: Logger;
  readonly registry: Registry;
  /** This replica: the pod name, or host and pid outside a pod. */
  readonly identity: string;
}

/**
 * A kubeconfig file when KUBECONFIG names one, else the pod's ServiceAccount, as client-node's loadFromCluster reads
 * it but from SERVICE_ACCOUNT_DIR. The token is read from its file again as the kubelet rotates it.
 */
export function loadKubeConfig(env: Pick<ProcessEnv, 'KUBECONFIG' | 'KUBERNETES_SERVICE_HOST' | 'KUBERNETES_SERVICE_PORT' | 'SERVICE_ACCOUNT_DIR'>): PooledKubeConfig {
  const kubeConfig = new PooledKubeConfig();
  if (env.KUBECONFIG !== undefined) {
    kubeConfig.loadFromFile(env.KUBECONFIG);
    return kubeConfig;
  }
  const { KUBERNETES_SERVICE_HOST: host, KUBERNETES_SERVICE_PORT: port, SERVICE_ACCOUNT_DIR: dir } = env;
  if (host === undefined || port === undefined) {
    throw new Error('no KUBECONFIG and not in a pod (KUBERNETES_SERVICE_HOST/PORT unset): set KUBECONFIG to run outside a cluster');
  }
  const server = `https://${isIPv6(host) ? `[${host}]` : host}:${port}`;
  kubeConfig.loadFromClusterAndUser(
    { name: 'in-cluster', server, caFile: join(dir, 'ca.crt'), skipTLSVerify: false },
    { name: 'service-account', authProvider: { name: 'tokenFile', config: { tokenFile: join(dir, 'token') } } },
  );
  return kubeConfig;
}

/**
 * A registry for one process' metrics, with Node's and the process' own (CPU, memory, event loop) on it: once per
 * process, however many controllers it runs.
 */
export function processRegistry(): Registry {
  const registry = new Registry();
  // prom-client samples event-loop delay every 10 ms by default: 100 wake-ups a second, most of an idle controller's
  // CPU. Every 100 ms still shows a starved loop (the lease renews every 2 s).
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });
  return registry;
}

/** Where a controller's parts come from beside its names and settings. */
export interface ControllerPartsOptions {
  /** Where its metrics are registered: the process' registry when it runs alone, a registry of its own beside others. */
  readonly registry: Registry;
  /** Its probe/metrics server; none when the process serves one for every controller it runs. */
  readonly http?: { readonly port: number; readonly host: string };
  /** Whom it acts as: the process' identity (loadKubeConfig) unless given one of its own (the manager's per-controller ServiceAccounts). */
  readonly kubeConfig?: PooledKubeConfig;
  /** The reflectors its informers share with the other controllers of the process; each informer its own when omitted. */
  readonly reflectors?: ReflectorPool;
}

/** The Manager (with its own Lease), logger and metrics registry of one controller. */
export function controllerParts({ name, leaderElectionLease }: ProcessNames, env: ProcessEnv, options: ControllerPartsOptions): ControllerProcessParts {
  const identity = env.POD_NAME ?? `${hostname()}-${process.pid}`;
  const log = createLogger({ name, level: env.LOG_LEVEL });
  const manager = new Manager({
    name,
    kubeConfig: options.kubeConfig ?? loadKubeConfig(env),
    logger: log,
    registry: options.registry,
    ...(options.reflectors === undefined ? {} : { reflectors: options.reflectors }),
    ...(options.http === undefined ? {} : { http: options.http }),
    ...(env.WATCH_NAMESPACE === undefined ? {} : { namespaces: env.WATCH_NAMESPACE }),
    ...(env.LEADER_ELECTION === 'true'
      ? { leaderElection: { namespace: env.LEADER_ELECTION_NAMESPACE, name: env.LEADER_ELECTION_NAME ?? leaderElectionLease, identity } }
      : {}),
  });
  log.info({ watchNamespaces: env.WATCH_NAMESPACE ?? '(all)' }, 'controller process configured');
  return { manager, log, registry: options.registry, identity };
}

/** The Manager, logger and metrics registry of a controller running in a process of its own, which serves its probes. */
export function controllerProcess(names: ProcessNames, env: ProcessEnv): ControllerProcessParts {
  return controllerParts(names, env, { registry: processRegistry(), http: { port: env.METRICS_PORT, host: env.HEALTH_HOST } });
}

/** The NATS settings of a process' environment. */
export type NatsEnv = Pick<ProcessEnv, 'NATS_URL' | 'NATS_USER' | 'NATS_PASSWORD' | 'NATS_TLS_CA_FILE' | 'NATS_TLS_CERT_FILE' | 'NATS_TLS_KEY_FILE'>;

/**
 * The event bus when NATS_URL is set; `name` is the NATS connection name (the controller's name). A process
 * that serves no metrics (the console) gives no registry.
 */
export function eventBusFrom(env: NatsEnv, options: { name: string; registry?: Registry; log: Logger }): EventBus | undefined {
  if (env.NATS_URL === undefined) return undefined;
  const tls =
    env.NATS_TLS_CA_FILE === undefined && env.NATS_TLS_CERT_FILE === undefined
      ? undefined
      : { caFile: env.NATS_TLS_CA_FILE, certFile: env.NATS_TLS_CERT_FILE, keyFile: env.NATS_TLS_KEY_FILE };
  return connectEventBus({
    servers: env.NATS_URL,
    user: env.NATS_USER,
    password: env.NATS_PASSWORD,
    ...(tls === undefined ? {} : { tls }),
    ...options,
  });
}

/**
 * Runs until SIGTERM/SIGINT (exit code 0: reconciles finished, lease released) or lost leadership and startup failures
 * (exit code 1). `cleanup` (closing the event bus, say) runs either way.
 */
export async function runUntilSignalled(
  parts: Pick<ControllerProcessParts, 'manager' | 'log'>,
  options: { cleanup?: () => Promise<void> } = {},
): Promise<void> {
  try {
    await parts.manager.run(abortOnSignals());
    process.exitCode = 0;
  } catch (error) {
    parts.log.error({ err: error, lostLeadership: error instanceof LeadershipLostError }, 'controller stopped');
    process.exitCode = 1;
  } finally {
    await options.cleanup?.();
  }
}
