// kube-proxy's configuration on the bed: nftables, masquerading all Service traffic, serving on the nodes' address.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { bedAddresses } from './bed-network.js';
import { renderKubeProxyConfig } from './kube-proxy.js';

describe('renderKubeProxyConfig', () => {
  it('runs in nftables mode for the bed’s pod range, masquerading all, health and metrics on the nodes’ address', () => {
    const config = parse(renderKubeProxyConfig({ network: bedAddresses(2), nodeName: 'bed-node-1' }, '/bed/kube-proxy.kubeconfig')) as Record<string, unknown>;
    expect(config).toMatchObject({
      kind: 'KubeProxyConfiguration',
      clientConnection: { kubeconfig: '/bed/kube-proxy.kubeconfig' },
      mode: 'nftables',
      hostnameOverride: 'bed-node-1',
      clusterCIDR: '10.66.0.0/16',
      healthzBindAddress: '172.31.2.2:10256',
      metricsBindAddress: '172.31.2.2:10249',
      nftables: { masqueradeAll: true },
      conntrack: { maxPerCore: 0 },
    });
  });
});
