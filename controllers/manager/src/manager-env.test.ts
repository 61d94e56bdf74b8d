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

  it('shares watches unless SHARE_WATCHES is false, and refuses any other word', () => {
    expect(managerEnvSchema.parse({}).SHARE_WATCHES).toBe('true');
    expect(managerEnvSchema.parse({ SHARE_WATCHES: 'false' }).SHARE_WATCHES).toBe('false');
    const result = managerEnvSchema.safeParse({ SHARE_WATCHES: 'no' });
    expect(result.success).toBe(false);
    expect(failureReason(result.error)).toContain('SHARE_WATCHES');
  });

  it('refuses LEADER_ELECTION_NAME, which would put every controller under one Lease', () => {
    const result = managerEnvSchema.safeParse({ LEADER_ELECTION_NAME: 'zk-oam' });
    expect(result.success).toBe(false);
    expect(failureReason(result.error)).toContain('in the manager each controller keeps its own Lease');
  });
});

describe('the identity the controllers act as', () => {
  it('is the process itself unless CONTROLLER_SERVICE_ACCOUNT_PREFIX is set', () => {
    expect(managerEnvSchema.parse({}).identity).toEqual({ kind: 'process' });
  });

  it('with the prefix, is each controller its own ServiceAccount, tokens written under CONTROLLER_TOKEN_DIR', () => {
    const env = managerEnvSchema.parse({ CONTROLLER_SERVICE_ACCOUNT_PREFIX: 'zk-oam-', CONTROLLER_SERVICE_ACCOUNT_NAMESPACE: 'zk-oam-system' });
    expect(env.identity).toEqual({ kind: 'own-service-account', prefix: 'zk-oam-', namespace: 'zk-oam-system', tokenDir: '/var/run/zk-oam/tokens' });
  });

  it('refuses the prefix without the namespace those ServiceAccounts are in', () => {
    const result = managerEnvSchema.safeParse({ CONTROLLER_SERVICE_ACCOUNT_PREFIX: 'zk-oam-' });
    expect(result.success).toBe(false);
    expect(failureReason(result.error)).toContain("CONTROLLER_SERVICE_ACCOUNT_NAMESPACE: CONTROLLER_SERVICE_ACCOUNT_PREFIX needs the controllers' ServiceAccounts' namespace");
  });
});

describe('controllerEnv', () => {
  it('gives a controller its <NAME>_ variables over the shared ones, and leaves the others the shared ones', () => {
    const env = { IDLE_PERIOD_MS: '60000', APPCONFIG_IDLE_PERIOD_MS: '300000', LOG_LEVEL: 'info' };
    expect(controllerEnv('appconfig', env)).toMatchObject({ IDLE_PERIOD_MS: '300000', LOG_LEVEL: 'info' });
    expect(controllerEnv('rolling', env)).toMatchObject({ IDLE_PERIOD_MS: '60000', LOG_LEVEL: 'info' });
  });
});
