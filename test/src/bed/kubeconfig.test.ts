// Kubeconfigs rendered by the bed load in client-node with their embedded credentials.
import { describe, expect, it } from 'vitest';
import { renderKubeconfig } from './kubeconfig.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const caPem = '-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n';

describe('renderKubeconfig', () => {
  it('embeds a token user and the CA, with the namespace as the context default', () => {
    const kubeconfig = new PooledKubeConfig();
    kubeconfig.loadFromString(
      renderKubeconfig({
        server: 'https://127.0.0.1:6443',
        caPem,
        user: 'sa',
        credentials: { kind: 'token', token: 't0k' },
        namespace: 'ns',
      }),
    );

    expect(kubeconfig.getCurrentCluster()?.server).toBe('https://127.0.0.1:6443');
    expect(Buffer.from(kubeconfig.getCurrentCluster()?.caData ?? '', 'base64').toString()).toBe(caPem);
    expect(kubeconfig.getCurrentUser()?.token).toBe('t0k');
    expect(kubeconfig.getContextObject(kubeconfig.getCurrentContext())?.namespace).toBe('ns');
  });

  it('embeds client certificate and key data for certificate users', () => {
    const kubeconfig = new PooledKubeConfig();
    kubeconfig.loadFromString(
      renderKubeconfig({
        server: 'https://127.0.0.1:6443',
        caPem,
        user: 'admin',
        credentials: { kind: 'client-certificate', certPem: 'CERT', keyPem: 'KEY' },
      }),
    );

    const user = kubeconfig.getCurrentUser();
    expect(Buffer.from(user?.certData ?? '', 'base64').toString()).toBe('CERT');
    expect(Buffer.from(user?.keyData ?? '', 'base64').toString()).toBe('KEY');
  });
});
