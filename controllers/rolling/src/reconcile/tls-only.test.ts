// The rolling trait stays away from TLS-only workloads (not supported yet) and binds to every other.
import type { KubeObject } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { tlsOnlyRefusal } from './tls-only.js';

const workload = (spec: object): KubeObject => ({ apiVersion: 'workload.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperWorkload', metadata: { name: 'zk' }, spec });

describe('tlsOnlyRefusal', () => {
  it('refuses a workload with no plain client port, saying why and what happens instead', () => {
    expect(tlsOnlyRefusal(workload({ tls: { quorum: true, client: 'Only' } }))).toBe(
      'ZookeeperWorkload zk serves clients over TLS only (spec.tls.client Only); rolling it is not supported yet: this controller ' +
        'observes members on the plain client port. Not bound: its StatefulSet rolls natively',
    );
  });

  it.each([{}, { tls: {} }, { tls: { client: 'Disabled', quorum: true } }, { tls: { client: 'Alongside' } }])('accepts %j', (spec) => {
    expect(tlsOnlyRefusal(workload(spec))).toBeUndefined();
  });
});
