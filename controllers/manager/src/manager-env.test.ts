import { failureReason } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { CONTROLLER_NAMES } from './controllers.js';
import { controllerEnv, managerEnvSchema } from './manager-env.js';

describe('managerEnvSchema', () => {
  it('runs every controller unless CONTROLLERS names some, each once, in the order given', () => {
    expect(managerEnvSchema.parse({}).CONTROLLERS).toEqual(['workload', 'scale', 'rolling', 'appconfig', 'znode', 'backup']);
    expect(CONTROLLER_NAMES).toEqual(['workload', 'scale', 'rolling', 'appconfig', 'znode', 'backup']);
    expect(managerEnvSchema.parse({ CONTROLLERS: 'rolling, workload,rolling' }).CONTROLLERS).toEqual(['rolling', 'workload']);
  });

  it('refuses a name that is no controller, naming it and the ones there are', () => {
    for (const [list, index, entry] of [['workload,scaler', 1, 'scaler'], ['', 0, ''], ['workload,', 1, '']] as const) {
      const result = managerEnvSchema.safeParse({ CONTROLLERS: list });
      expect(result.success, list).toBe(false);
      expect(failureReason(result.error), list).toContain(
        `CONTROLLERS.${String(index)}: ${JSON.stringify(entry)} is not a controller: CONTROLLERS names some of workload, scale, rolling, appconfig, znode, backup, separated by commas`,
      );
    }
  });

  it('refuses LEADER_ELECTION_NAME, which would put every controller under one Lease', () => {
    const result = managerEnvSchema.safeParse({ LEADER_ELECTION_NAME: 'zk-oam' });
    expect(result.success).toBe(false);
    expect(failureReason(result.error)).toContain('in the manager each controller keeps its own Lease');
  });
});

describe('controllerEnv', () => {
  it('gives a controller its <NAME>_ variables over the shared ones, and leaves the others the shared ones', () => {
    const env = { RESYNC_PERIOD_MS: '60000', APPCONFIG_RESYNC_PERIOD_MS: '300000', LOG_LEVEL: 'info' };
    expect(controllerEnv('appconfig', env)).toMatchObject({ RESYNC_PERIOD_MS: '300000', LOG_LEVEL: 'info' });
    expect(controllerEnv('rolling', env)).toMatchObject({ RESYNC_PERIOD_MS: '60000', LOG_LEVEL: 'info' });
  });
});
