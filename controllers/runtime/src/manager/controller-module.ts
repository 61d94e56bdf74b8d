// A controller as something a process starts: its names, its settings parsed from the environment, and a start function
// that wires its informers and reconcilers into the Manager it is given. Its own process (its main.ts) and the manager
// process that runs several controllers (controllers/manager) start it the same way.
import type { z } from 'zod';
import { controllerProcess, runUntilSignalled, type ControllerProcessParts, type ProcessEnv, type ProcessNames } from './process.js';
import { readRenamedSettings, warnOfOldSettingNames, type OldSettingName, type RenamedSetting } from './renamed-settings.js';

/** What a started controller leaves to do once its Manager has stopped (closing its event bus, say). */
export interface StartedController {
  readonly cleanup?: () => Promise<void>;
}

/** A controller with its settings read: start it as often as its Manager is made afresh. */
export interface ConfiguredController {
  readonly names: ProcessNames;
  readonly env: ProcessEnv;
  /** Settings the environment gave under an old name; the process warns of each once it has a logger. */
  readonly oldSettingNames: readonly OldSettingName[];
  start(parts: ControllerProcessParts): StartedController;
}

export interface ControllerModule {
  readonly names: ProcessNames;
  /** Parses the controller's settings (processEnvSchema and its own); throws the ZodError that names each bad variable. */
  configure(env: Readonly<Record<string, string | undefined>>): ConfiguredController;
}

/**
 * A ControllerModule from a controller's names, its settings' schema and its start function; `renamedSettings` are
 * the settings it still reads under an old name.
 */
export function controllerModule<Env extends ProcessEnv>(
  names: ProcessNames,
  configSchema: z.ZodType<Env>,
  start: (parts: ControllerProcessParts, config: Env) => StartedController,
  renamedSettings: readonly RenamedSetting[] = [],
): ControllerModule {
  return {
    names,
    configure: (env) => {
      const read = readRenamedSettings(env, renamedSettings);
      const config = configSchema.parse(read.env);
      return { names, env: config, oldSettingNames: read.oldNamesRead, start: (parts) => start(parts, config) };
    },
  };
}

/**
 * A controller in a process of its own, what its main.ts runs: settings from the environment, its Manager serving the
 * probes and metrics, then until SIGTERM/SIGINT (exit code 0) or lost leadership (exit code 1).
 */
export async function runControllerProcess(module: ControllerModule): Promise<void> {
  const configured = module.configure(process.env);
  const parts = controllerProcess(module.names, configured.env);
  warnOfOldSettingNames(parts.log, configured.oldSettingNames);
  const started = configured.start(parts);
  await runUntilSignalled(parts, started.cleanup === undefined ? {} : { cleanup: started.cleanup });
}
