// What every controller process reads from its environment (kubeconfig, NATS, HTTP, leader election, logging), parsed
// once in its main.ts, and the two things made from it: the KubeConfig and the optional NATS event bus.
import { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { z } from 'zod';
import { connectEventBus, type EventBus } from '../events/index.js';

const optionalText = z.string().min(1).optional();

/** Extend it with the controller's own settings (and LEADER_ELECTION_NAME, whose default is the controller's name). */
export const processEnvSchema = z.object({
  /** In-cluster credentials when unset. */
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
  POD_NAME: optionalText,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});
export type ProcessEnv = z.infer<typeof processEnvSchema>;

export function kubeConfigFrom(env: Pick<ProcessEnv, 'KUBECONFIG'>): KubeConfig {
  const kubeConfig = new KubeConfig();
  if (env.KUBECONFIG === undefined) kubeConfig.loadFromCluster();
  else kubeConfig.loadFromFile(env.KUBECONFIG);
  return kubeConfig;
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
