// The CNI network every pod joins, and the names of its sandboxes.
import { describe, expect, it } from 'vitest';
import { cniNetworkConfig, sandboxName } from './pod-network.js';

describe('cniNetworkConfig', () => {
  it('is a bridge with the gateway on cni0, hairpin on, no masquerade, and host-local addresses from the bed’s range in the agent’s own directory', () => {
    expect(cniNetworkConfig({ podCidr: '10.65.0.0/16', ipamDir: '/bed/agent/cni' })).toEqual({
      cniVersion: '1.1.0',
      name: 'bed',
      type: 'bridge',
      bridge: 'cni0',
      isGateway: true,
      ipMasq: false,
      hairpinMode: true,
      ipam: { type: 'host-local', ranges: [[{ subnet: '10.65.0.0/16' }]], routes: [{ dst: '0.0.0.0/0' }], dataDir: '/bed/agent/cni' },
    });
  });
});

describe('sandboxName', () => {
  it('is the nodes’ namespace and the pod’s uid, which a bed’s release looks for', () => {
    expect(sandboxName({ nodeNamespace: 'bed2' }, '0b5c-11')).toBe('bed2-0b5c-11');
  });
});
