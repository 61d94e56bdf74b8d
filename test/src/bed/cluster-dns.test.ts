// The bed's cluster DNS objects: CoreDNS behind kube-dns at the bed's DNS address, short TTLs, nothing forwarded.
import { describe, expect, it } from 'vitest';
import { COREFILE, renderClusterDns } from './cluster-dns.js';
import { COREDNS_IMAGE_REFERENCE } from '../network/coredns-image.js';

describe('renderClusterDns', () => {
  const objects = renderClusterDns({ dnsServiceIp: '10.97.0.10' });

  it('puts kube-dns at the bed’s DNS address, in front of the coredns Deployment', () => {
    expect(objects.map((object) => `${object.kind ?? ''}/${object.metadata?.name ?? ''}`)).toEqual([
      'ServiceAccount/coredns',
      'ClusterRole/system:coredns',
      'ClusterRoleBinding/system:coredns',
      'ConfigMap/coredns',
      'Deployment/coredns',
      'Service/kube-dns',
    ]);
    expect(objects.at(-1)).toMatchObject({ metadata: { namespace: 'kube-system' }, spec: { clusterIP: '10.97.0.10', selector: { 'k8s-app': 'kube-dns' } } });
    expect(JSON.stringify(objects[4])).toContain(COREDNS_IMAGE_REFERENCE);
  });

  it('answers for cluster.local from what it watches, caching nothing, and forwards nothing', () => {
    expect(COREFILE).toContain('kubernetes cluster.local in-addr.arpa ip6.arpa');
    expect(COREFILE).toMatch(/ttl 5\n/);
    expect(COREFILE).not.toContain('cache');
    expect(COREFILE).not.toContain('forward');
  });
});
