// The manager process' own settings: which controllers it runs (CONTROLLERS), and none that would give them one Lease.
// Each controller reads its own settings from the same environment, where `<NAME>_<VARIABLE>` is its alone: rolling and
// appconfig both read RESYNC_PERIOD_MS, APPCONFIG_RESYNC_PERIOD_MS reaches appconfig only.
import { processEnvSchema } from '@zk-oam/runtime';
import { z } from 'zod';
import { CONTROLLER_NAMES, isControllerName, type ControllerName } from './controllers.js';

const controllerName = z.string().refine(isControllerName, {
  error: (issue) => `${JSON.stringify(issue.input)} is not a controller: CONTROLLERS names some of ${CONTROLLER_NAMES.join(', ')}, separated by commas`,
});

export const managerEnvSchema = processEnvSchema.pick({ METRICS_PORT: true, HEALTH_HOST: true, LOG_LEVEL: true }).extend({
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
});
export type ManagerEnv = z.infer<typeof managerEnvSchema>;

/**
 * The environment controller `name` is configured from in the manager: the process' own, with `<NAME>_<VARIABLE>`
 * (APPCONFIG_RESYNC_PERIOD_MS) over `<VARIABLE>`, so that a setting two controllers both read can differ between them.
 */
export function controllerEnv(name: ControllerName, env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  const prefix = `${name.toUpperCase()}_`;
  const own = Object.entries(env).flatMap(([key, value]) => (key.startsWith(prefix) ? [[key.slice(prefix.length), value] as const] : []));
  return { ...env, ...Object.fromEntries(own) };
}
