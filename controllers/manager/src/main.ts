// The manager's process: the controllers CONTROLLERS names, each loaded, configured from the environment and run under
// its own Lease beside the others (runtime's runControllerSet), acting as whom its identity setting says, their informers
// sharing one watch where they watch the same thing (SHARE_WATCHES). Exits 0 after
// SIGTERM/SIGINT, once every controller released its Lease; 1 when the settings are refused.
import { abortOnSignals, controllerParts, createLogger, ReflectorPool, runControllerSet, runMain } from '@zk-oam/runtime';
import { CONTROLLER_MODULES } from './controllers.js';
import { controllerCredentials } from './identity/controller-credentials.js';
import { controllerEnv, managerEnvSchema } from './manager-env.js';

async function main(): Promise<void> {
  const env = managerEnvSchema.parse(process.env);
  const controllers = await Promise.all(
    env.CONTROLLERS.map(async (name) => ({ name, configured: (await CONTROLLER_MODULES[name]()).configure(controllerEnv(name, process.env)) })),
  );
  const log = createLogger({ name: 'manager', level: env.LOG_LEVEL });
  const signal = abortOnSignals();
  const credentials = controllerCredentials(env.identity, { env, log, signal });
  const reflectors = env.SHARE_WATCHES === 'true' ? new ReflectorPool() : undefined;
  log.info({ identity: env.identity, shareWatches: reflectors !== undefined }, 'each controller acts as its identity');
  await runControllerSet(controllers, {
    env,
    log,
    signal,
    makeParts: async ({ name, configured }, registry) => {
      const kubeConfig = await credentials(name);
      return controllerParts(configured.names, configured.env, {
        registry,
        ...(kubeConfig === undefined ? {} : { kubeConfig }),
        ...(reflectors === undefined ? {} : { reflectors }),
      });
    },
  });
  process.exitCode = 0;
}

await runMain('manager', main);
