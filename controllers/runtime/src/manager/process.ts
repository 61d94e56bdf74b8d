// What every deployable's process shares: the environment it reads (parsed once), its Manager and optional NATS event
// bus made from it, and running that Manager to an exit code. Keeps each controller's main.ts to its own settings and
// its wiring.
import { hostname } from 'node:os';
import { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { z } from 'zod';
import { connectEventBus, type EventBus } from '../events/index.js';
import { createLogger } from '../logging/logger.js';
import { LeadershipLostError, Manager } from './manager.js';
import { abortOnSignals } from './signals.js';

const optionalText = z.string().min(1).optional();

/** The settings every controller process takes from its environment; a controller extends it with its own. */
export const processEnvSchema = z.object({
  /** Unset in a pod: the in-cluster ServiceAccount is used. */
  KUBECONFIG: optionalText,
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
  /** Defaults to the controller's name. */
  LEADER_ELECTION_NAME: optionalText,
  POD_NAME: optionalText,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});
export type ProcessEnv = z.infer<typeof processEnvSchema>;

export interface ControllerProcessParts {
  readonly manager: Manager;
  readonly log: Logger;
  readonly registry: Registry;
  /** This replica: the pod name, or host and pid outside a pod. */
  readonly identity: string;
}

function loadKubeConfig(path: string | undefined): KubeConfig {
  const kubeConfig = new KubeConfig();
  if (path === undefined) kubeConfig.loadFromCluster();
  else kubeConfig.loadFromFile(path);
  return kubeConfig;
}

/** The Manager, logger and metrics registry of a controller process named `name` (its field manager and Lease). */
export function controllerProcess(name: string, env: ProcessEnv): ControllerProcessParts {
  const identity = env.POD_NAME ?? `${hostname()}-${process.pid}`;
  const log = createLogger({ name, level: env.LOG_LEVEL });
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const manager = new Manager({
    name,
    kubeConfig: loadKubeConfig(env.KUBECONFIG),
    logger: log,
    registry,
    http: { port: env.METRICS_PORT, host: env.HEALTH_HOST },
    ...(env.LEADER_ELECTION === 'true'
      ? { leaderElection: { namespace: env.LEADER_ELECTION_NAMESPACE, name: env.LEADER_ELECTION_NAME ?? name, identity } }
      : {}),
  });
  return { manager, log, registry, identity };
}

/** The event bus when NATS_URL is set; `name` is the NATS connection name (the controller's field manager). */
export function eventBusFrom(env: ProcessEnv, options: { name: string; registry: Registry; log: Logger }): EventBus | undefined {
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
