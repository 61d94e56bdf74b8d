// The rolling trait on TLS workloads: observed over TLS when TLS-only; refused only for a handover by reconfig there.
import { ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import type { KubeObject } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { clientTlsOf, tlsOnlyRefusal } from './tls-only.js';

const workload = (spec: object): KubeObject => ({ apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: 'ZookeeperWorkload', metadata: { name: 'zk' }, spec });
const tlsOnly = workload({ tls: { quorum: true, client: 'Only' } });

describe('tlsOnlyRefusal', () => {
  it('refuses a handover by reconfig on a workload with no plain client port, saying why and what to use', () => {
    expect(tlsOnlyRefusal(tlsOnly, 'Reconfigure')).toBe(
      'ZookeeperWorkload zk serves clients over TLS only (spec.tls.client Only); a leader handover by reconfig is not supported ' +
        'there yet (ZooKeeper takes a member back into the voters only with a client address in its server line, which would ' +
        'open a plain client port): use leaderHandover Election. Not bound: its StatefulSet rolls natively',
    );
  });

  it('accepts an election handover on a TLS-only workload, and any handover where the plain port is open', () => {
    expect(tlsOnlyRefusal(tlsOnly, 'Election')).toBeUndefined();
    for (const spec of [{}, { tls: {} }, { tls: { client: 'Disabled', quorum: true } }, { tls: { client: 'Alongside' } }]) {
      expect(tlsOnlyRefusal(workload(spec), 'Reconfigure')).toBeUndefined();
    }
  });
});

describe('clientTlsOf', () => {
  it('reads the client TLS mode, Disabled when the workload does not set one', () => {
    expect([clientTlsOf(tlsOnly), clientTlsOf(workload({})), clientTlsOf(workload({ tls: { client: 'Alongside' } }))]).toEqual(['Only', 'Disabled', 'Alongside']);
  });
});
