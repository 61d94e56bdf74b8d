// The console process' settings, from its environment (parsed once at start).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { processEnvSchema } from '@zk-oam/runtime';
import { z } from 'zod';

export const consoleEnvSchema = processEnvSchema
  .pick({
    KUBECONFIG: true,
    KUBERNETES_SERVICE_HOST: true,
    KUBERNETES_SERVICE_PORT: true,
    SERVICE_ACCOUNT_DIR: true,
    LOG_LEVEL: true,
    // The controllers' NATS (optional): the streams add their facts.
    NATS_URL: true,
    NATS_USER: true,
    NATS_PASSWORD: true,
    NATS_TLS_CA_FILE: true,
    NATS_TLS_CERT_FILE: true,
    NATS_TLS_KEY_FILE: true,
  })
  .extend({
    /** Comma-separated kubeconfig contexts to serve, in order; every context of the kubeconfig when unset. */
    CONSOLE_CONTEXTS: z
      .string()
      .min(1)
      .transform((value) => value.split(',').map((name) => name.trim()).filter((name) => name !== ''))
      .optional(),
    /** `0.0.0.0` serves every address (on the bed, the pod IP). */
    CONSOLE_HOST: z.string().min(1).default('127.0.0.1'),
    CONSOLE_PORT: z.coerce.number().int().min(0).max(65_535).default(8443),
    /** The web page's files: `web/` beside the bundle (dist/web, as shipped), else the sources' `console/web/`. */
    CONSOLE_WEB_DIR: z.string().min(1).default(defaultWebDir),
  });

function defaultWebDir(): string {
  const shipped = fileURLToPath(new URL('web/', import.meta.url));
  return existsSync(shipped) ? shipped : fileURLToPath(new URL('../web/', import.meta.url));
}
export type ConsoleEnv = z.infer<typeof consoleEnvSchema>;
