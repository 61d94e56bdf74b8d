// The manager process' own settings: which controllers it runs (CONTROLLERS), whom each acts as, and none that would
// give them one Lease. Each controller reads its own settings from the same environment, where `<NAME>_<VARIABLE>` is
// its alone: every controller that looks again on a timer reads IDLE_PERIOD_MS, APPCONFIG_IDLE_PERIOD_MS reaches
// appconfig only.
import { processEnvSchema } from '@zk-oam/runtime';
import { z } from 'zod';
import { CONTROLLER_NAMES, isControllerName, type ControllerName } from './controllers.js';
import type { ControllerIdentity } from './identity/controller-credentials.js';

const controllerName = z.string().refine(isControllerName, {
  error: (issue) => `${JSON.stringify(issue.input)} is not a controller: CONTROLLERS names some of ${CONTROLLER_NAMES.join(', ')}, separated by commas`,
});

export const managerEnvSchema = processEnvSchema
  .pick({
    KUBECONFIG: true,
    KUBERNETES_SERVICE_HOST: true,
    KUBERNETES_SERVICE_PORT: true,
    SERVICE_ACCOUNT_DIR: true,
    METRICS_PORT: true,
    HEALTH_HOST: true,
    LOG_LEVEL: true,
  })
  .extend({
  /** The controllers this process runs, separated by commas; every one when unset. A name given twice runs once. */
  CONTROLLERS: z
    .string()
    .default(CONTROLLER_NAMES.join(','))
    .transform((list) => list.split(',').map((name) => name.trim()))
    .pipe(z.array(controllerName).min(1, { error: 'CONTROLLERS names no controller' }))
    .transform((names) => [...new Set(names)].filter(isControllerName)),
  /** Each controller elects its leader by its own Lease: one name for all of them would make them one. */
  LEADER_ELECTION_NAME: z
    .undefined({ error: 'LEADER_ELECTION_NAME is for a controller in a process of its own: in the manager each controller keeps its own Lease' })
    .optional(),
  /**
   * Set: each controller acts as the ServiceAccount `<prefix><controller>` in CONTROLLER_SERVICE_ACCOUNT_NAMESPACE, by a
   * token the manager asks for. Unset: every controller acts as the process (the union of their RBAC on one account).
   */
  CONTROLLER_SERVICE_ACCOUNT_PREFIX: z.string().min(1).optional(),
  CONTROLLER_SERVICE_ACCOUNT_NAMESPACE: z.string().min(1).optional(),
  /**
   * `true`: informers of several controllers that list and watch the same kind with the same selectors share one watch,
   * which asks as one of them (docs/operations.md). `false`: each controller watches on its own, as its own identity.
   */
  SHARE_WATCHES: z.enum(['true', 'false']).default('true'),
  /** Where those tokens are written, a file per controller: a memory-backed volume only this process reads. */
  CONTROLLER_TOKEN_DIR: z.string().min(1).default('/var/run/zk-oam/tokens'),
  })
  .transform(({ CONTROLLER_SERVICE_ACCOUNT_PREFIX: prefix, CONTROLLER_SERVICE_ACCOUNT_NAMESPACE: namespace, CONTROLLER_TOKEN_DIR: tokenDir, ...env }, context) => {
    if (prefix === undefined) return { ...env, identity: { kind: 'process' } satisfies ControllerIdentity };
    if (namespace === undefined) {
      context.issues.push({
        code: 'custom',
        path: ['CONTROLLER_SERVICE_ACCOUNT_NAMESPACE'],
        message: "CONTROLLER_SERVICE_ACCOUNT_PREFIX needs the controllers' ServiceAccounts' namespace",
        input: namespace,
      });
      return z.NEVER;
    }
    return { ...env, identity: { kind: 'own-service-account', prefix, namespace, tokenDir } satisfies ControllerIdentity };
  });
export type ManagerEnv = z.infer<typeof managerEnvSchema>;

/**
 * The environment controller `name` is configured from in the manager: the process' own, with `<NAME>_<VARIABLE>`
 * (APPCONFIG_IDLE_PERIOD_MS) over `<VARIABLE>`, so that a setting two controllers both read can differ between them.
 */
export function controllerEnv(name: ControllerName, env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  const prefix = `${name.toUpperCase()}_`;
  const own = Object.entries(env).flatMap(([key, value]) => (key.startsWith(prefix) ? [[key.slice(prefix.length), value] as const] : []));
  return { ...env, ...Object.fromEntries(own) };
}
