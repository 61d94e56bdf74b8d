import { describe, expect, it } from 'vitest';
import { CONTROLLER_MODULES } from './controllers.js';
import { controllerEnv } from './manager-env.js';

/** The settings a controller was configured with, beyond the process' own. */
async function settingsOf(name: 'rolling' | 'appconfig' | 'workload', env: Record<string, string>): Promise<{ settings: Record<string, unknown>; oldNames: string[] }> {
  const configured = (await CONTROLLER_MODULES[name]()).configure(controllerEnv(name, { KUBECONFIG: 'unused', ...env }));
  return { settings: configured.env as unknown as Record<string, unknown>, oldNames: configured.oldSettingNames.map(({ old }) => old) };
}

describe('settings renamed so that one meaning has one name', () => {
  it("reads the rolling trait's old names as the scale trait's, in the manager with its prefix too", async () => {
    const rolling = await settingsOf('rolling', { ROLLING_POLL_PERIOD_MS: '1000', RESYNC_PERIOD_MS: '120000', LOCK_LEASE_SECONDS: '20' });
    expect(rolling.settings).toMatchObject({ STEP_PERIOD_MS: 1000, IDLE_PERIOD_MS: 120_000, LOCK_DURATION_SECONDS: 20 });
    expect(rolling.oldNames).toEqual(['POLL_PERIOD_MS', 'RESYNC_PERIOD_MS', 'LOCK_LEASE_SECONDS']);
  });

  it("reads the appconfig controller's old periods as IDLE_PERIOD_MS and WAIT_PERIOD_MS, the new names first", async () => {
    const appconfig = await settingsOf('appconfig', { APPCONFIG_RESYNC_PERIOD_MS: '600000', APPCONFIG_RETRY_PERIOD_MS: '5000', WAIT_PERIOD_MS: '2000' });
    expect(appconfig.settings).toMatchObject({ IDLE_PERIOD_MS: 600_000, WAIT_PERIOD_MS: 2000 });
    expect(appconfig.oldNames).toEqual(['RESYNC_PERIOD_MS', 'RETRY_PERIOD_MS']);
  });

  it("reads the workload controller's OBSERVE_PERIOD_MS as IDLE_PERIOD_MS, and its new name over the old", async () => {
    expect((await settingsOf('workload', { WORKLOAD_OBSERVE_PERIOD_MS: '4000' })).settings).toMatchObject({ IDLE_PERIOD_MS: 4000 });
    const both = await settingsOf('workload', { OBSERVE_PERIOD_MS: '4000', IDLE_PERIOD_MS: '8000' });
    expect(both.settings).toMatchObject({ IDLE_PERIOD_MS: 8000 });
    expect(both.oldNames).toEqual(['OBSERVE_PERIOD_MS']);
  });
});
