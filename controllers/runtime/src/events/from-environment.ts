// The NATS settings every controller's main reads from its environment, and the bus they open (none without NATS_URL).
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { z } from 'zod';
import { connectEventBus, type EventBus } from './bus.js';

const optionalText = z.string().min(1).optional();

/** Merge into a main's configuration schema: `configSchema = z.object({...}).extend(natsEnvironmentSchema.shape)`. */
export const natsEnvironmentSchema = z.object({
  NATS_URL: optionalText,
  NATS_USER: optionalText,
  NATS_PASSWORD: optionalText,
  NATS_TLS_CA_FILE: optionalText,
  NATS_TLS_CERT_FILE: optionalText,
  NATS_TLS_KEY_FILE: optionalText,
});
export type NatsEnvironment = z.infer<typeof natsEnvironmentSchema>;

/** The event bus when NATS_URL is set; undefined otherwise (the controller then runs on watches alone). */
export function eventBusFromEnvironment(
  config: NatsEnvironment,
  options: { name: string; registry: Registry; log: Logger },
): EventBus | undefined {
  if (config.NATS_URL === undefined) return undefined;
  const tls =
    config.NATS_TLS_CA_FILE === undefined && config.NATS_TLS_CERT_FILE === undefined
      ? undefined
      : { caFile: config.NATS_TLS_CA_FILE, certFile: config.NATS_TLS_CERT_FILE, keyFile: config.NATS_TLS_KEY_FILE };
  return connectEventBus({
    servers: config.NATS_URL,
    user: config.NATS_USER,
    password: config.NATS_PASSWORD,
    ...(tls === undefined ? {} : { tls }),
    ...options,
  });
}
