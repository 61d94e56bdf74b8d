import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadKubeConfig } from './process.js';

describe('loadKubeConfig in a pod', () => {
  it('uses the API address from the environment and the token and CA under SERVICE_ACCOUNT_DIR', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sa-'));
    await writeFile(join(dir, 'token'), 'the-token');
    await writeFile(join(dir, 'ca.crt'), 'not a real CA');
    const kubeConfig = loadKubeConfig({ KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443', SERVICE_ACCOUNT_DIR: dir });
    expect(kubeConfig.getCurrentCluster()).toMatchObject({ server: 'https://10.96.0.1:443', caFile: join(dir, 'ca.crt') });
    const headers: Record<string, string> = {};
    await kubeConfig.applyToHTTPSOptions({ headers });
    expect(headers['Authorization']).toBe('Bearer the-token');
  });

  it('brackets an IPv6 API address', () => {
    const kubeConfig = loadKubeConfig({ KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443', SERVICE_ACCOUNT_DIR: '/nowhere' });
    expect(kubeConfig.getCurrentCluster()?.server).toBe('https://[fd00::1]:443');
  });

  it('says what to set when there is neither a kubeconfig nor a pod environment', () => {
    expect(() => loadKubeConfig({ SERVICE_ACCOUNT_DIR: '/nowhere' })).toThrow(/set KUBECONFIG/);
  });
});
