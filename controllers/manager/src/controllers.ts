// Every controller the manager can run, by the name CONTROLLERS gives it. Each is imported only when enabled (a chunk of
// its own in the bundle): a manager that runs one controller loads that controller's code alone. A new controller is
// one line here, its package a dependency of this one.
import type { ControllerModule } from '@zk-oam/runtime';

export const CONTROLLER_MODULES = {
  workload: async () => (await import('@zk-oam/workload/start')).workloadController,
  scale: async () => (await import('@zk-oam/scale/start')).scaleController,
  rolling: async () => (await import('@zk-oam/rolling/start')).rollingController,
  appconfig: async () => (await import('@zk-oam/appconfig/start')).appconfigController,
  znode: async () => (await import('@zk-oam/znode/start')).znodeController,
  backup: async () => (await import('@zk-oam/backup/start')).backupController,
} satisfies Record<string, () => Promise<ControllerModule>>;

export type ControllerName = keyof typeof CONTROLLER_MODULES;

export function isControllerName(name: string): name is ControllerName {
  return Object.hasOwn(CONTROLLER_MODULES, name);
}

/** Every controller, in the order CONTROLLERS defaults to. */
export const CONTROLLER_NAMES: readonly ControllerName[] = Object.keys(CONTROLLER_MODULES).filter(isControllerName);
