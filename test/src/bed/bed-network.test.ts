// Each bed's addresses follow from its index, and no two beds share one.
import { describe, expect, it } from 'vitest';
import { bedAddresses, MAX_BED_NETWORKS } from './bed-network.js';

describe('bedAddresses', () => {
  it('gives bed 1 its node namespace, veth addresses, pod and Service ranges, and the two Service IPs', () => {
    expect(bedAddresses(1)).toEqual({
      index: 1,
      nodeNamespace: 'bed1',
      hostInterface: 'bed1-host',
      hostAddress: '172.31.1.1',
      nodeAddress: '172.31.1.2',
      podCidr: '10.65.0.0/16',
      serviceCidr: '10.97.0.0/16',
      apiServiceIp: '10.97.0.1',
      dnsServiceIp: '10.97.0.10',
    });
  });

  it('gives every bed addresses and names of its own, interface names within the kernel’s 15 characters', () => {
    const all = Array.from({ length: MAX_BED_NETWORKS }, (_, i) => bedAddresses(i + 1));
    for (const key of ['nodeNamespace', 'hostAddress', 'podCidr', 'serviceCidr'] as const) {
      expect(new Set(all.map((bed) => bed[key])).size).toBe(MAX_BED_NETWORKS);
    }
    expect(Math.max(...all.map((bed) => bed.hostInterface.length))).toBeLessThanOrEqual(15);
    // The pod ranges never reach the Service ranges.
    expect(bedAddresses(MAX_BED_NETWORKS).podCidr).toBe('10.95.0.0/16');
  });

  it('refuses an index outside 1 to 31', () => {
    expect(() => bedAddresses(0)).toThrow(RangeError);
    expect(() => bedAddresses(MAX_BED_NETWORKS + 1)).toThrow(/1 to 31/);
  });
});
