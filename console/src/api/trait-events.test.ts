import { KubeApiError } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { BoundTraits } from './trait-events.js';

describe('BoundTraits', () => {
  it('knows the traits it started with, looks up a new one once, and takes a refusal or another workload as not bound', async () => {
    const asked: string[] = [];
    const traits: Record<string, unknown> = {
      '/apis/rolling.zookeeper.zkoam.dev/v1alpha1/namespaces/team-a/zookeeperrollings/made-later': { spec: { workloadRef: { name: 'zk' } } },
      '/apis/rolling.zookeeper.zkoam.dev/v1alpha1/namespaces/team-a/zookeeperrollings/elsewhere': { spec: { workloadRef: { name: 'other' } } },
    };
    const client = {
      request: (_verb: string, path: string) => {
        asked.push(path);
        const trait = traits[path];
        return trait === undefined ? Promise.reject(new KubeApiError(403, 'Forbidden', 'GET', path, 'no')) : Promise.resolve(trait);
      },
    };
    const bound = new BoundTraits(client, 'team-a', 'zk', [{ kind: 'ZookeeperScale', name: 'zk-scale' }]);
    expect(await bound.names('ZookeeperScale', 'zk-scale')).toBe(true);
    expect(await bound.names('ZookeeperRolling', 'made-later')).toBe(true);
    expect(await bound.names('ZookeeperRolling', 'made-later')).toBe(true);
    expect(await bound.names('ZookeeperRolling', 'elsewhere')).toBe(false);
    expect(await bound.names('ZookeeperRolling', 'forbidden')).toBe(false);
    expect(await bound.names('Pod', 'zk-0')).toBe(false);
    expect(asked.filter((path) => path.endsWith('/made-later'))).toHaveLength(1);
    expect(asked.some((path) => path.endsWith('/zk-scale'))).toBe(false);
  });
});
