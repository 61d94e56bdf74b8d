// zoo.cfg and the initial dynamic configuration: additional config merged, managed keys fixed, members addressed by name.
import { parseDynamicConfig, voters } from '@zk-oam/zookeeper';
import { describe, expect, it } from 'vitest';
import { buildInitialDynamicConfig } from './initial-dynamic-config.js';
import { minimalWorkload, withSpec } from './test-workloads.js';
import { buildZooCfg } from './zoo-cfg.js';

const keysOf = (text: string): string[] => text.trim().split('\n').map((line) => line.slice(0, line.indexOf('=')));

describe('buildZooCfg', () => {
  it('appends additional config after the managed keys, sorted by key', () => {
    const workload = withSpec(minimalWorkload(), (spec) => ({
      ...spec,
      config: { ...spec.config, additionalConfig: { 'snapCount': '50000', 'jute.maxbuffer': '4194304' } },
    }));
    expect(keysOf(buildZooCfg(workload.spec, 'Plain')).slice(-3)).toEqual(['admin.enableServer', 'jute.maxbuffer', 'snapCount']);
    expect(buildZooCfg(workload.spec, 'Plain')).toContain('\njute.maxbuffer=4194304\nsnapCount=50000\n');
  });

  it('never writes skipACL, clientPort or membership lines', () => {
    const keys = keysOf(buildZooCfg(minimalWorkload().spec, 'Plain'));
    expect(keys.filter((key) => key === 'skipACL' || key === 'clientPort' || key.startsWith('server.'))).toEqual([]);
  });
});

describe('buildInitialDynamicConfig', () => {
  it('lists members 0..n-1 as participants with myid = ordinal + 1, quorum ports and a client address of their own', () => {
    const config = parseDynamicConfig(buildInitialDynamicConfig(minimalWorkload(), 3));
    expect(config.version).toBeUndefined();
    expect(voters(config).map((server) => [server.id, server.host, server.quorumPort, server.electionPort, server.clientAddress, server.clientPort])).toEqual([
      [1, 'zk-0.zk-headless.prod.svc.cluster.local', 2888, 3888, 'zk-0.zk-headless.prod.svc.cluster.local', 2181],
      [2, 'zk-1.zk-headless.prod.svc.cluster.local', 2888, 3888, 'zk-1.zk-headless.prod.svc.cluster.local', 2181],
      [3, 'zk-2.zk-headless.prod.svc.cluster.local', 2888, 3888, 'zk-2.zk-headless.prod.svc.cluster.local', 2181],
    ]);
  });
});
