import { describe, expect, it } from 'vitest';
import { ClusterDirectory } from './clusters.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

describe('ClusterDirectory', () => {
  const kubeConfig = new PooledKubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'bed', server: 'https://127.0.0.1:6443', caData: 'Q0E=', skipTLSVerify: false }],
    users: [{ name: 'admin', token: 'admin-token' }],
    contexts: [
      { name: 'east', cluster: 'bed', user: 'admin', namespace: 'team-a' },
      { name: 'west', cluster: 'bed', user: 'admin' },
    ],
    currentContext: 'east',
  });

  it('serves one cluster per context, with the context\'s namespace (default when unset)', () => {
    expect(new ClusterDirectory(kubeConfig).list()).toStrictEqual([
      { name: 'east', namespace: 'team-a', server: 'https://127.0.0.1:6443' },
      { name: 'west', namespace: 'default', server: 'https://127.0.0.1:6443' },
    ]);
    expect(new ClusterDirectory(kubeConfig, ['west']).list().map((cluster) => cluster.name)).toStrictEqual(['west']);
    expect(() => new ClusterDirectory(kubeConfig, ['north'])).toThrow(/north/);
  });

  it('makes clients that carry the caller\'s token and never the context\'s own user', () => {
    const client = new ClusterDirectory(kubeConfig).clientFor('east', 'caller-token');
    expect(client.kubeConfig.getCurrentUser()?.token).toBe('caller-token');
    expect(client.kubeConfig.getCurrentCluster()?.caData).toBe('Q0E=');
    expect(client.kubeConfig.getUsers().map((user) => user.token)).toStrictEqual(['caller-token']);
  });
});
