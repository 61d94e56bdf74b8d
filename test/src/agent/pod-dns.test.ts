// The /etc/hosts and /etc/resolv.conf the agent writes for each pod, as kubelet writes them.
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { renderPodHosts, renderPodResolvConf } from './pod-dns.js';

const dns = { nameserver: '10.97.0.10', nodeResolvConf: 'domain example.org\nnameserver 192.0.2.1\noptions edns0\n' };
const member: V1Pod = { metadata: { name: 'zk-1', namespace: 'kafka' }, spec: { containers: [], hostname: 'zk-1', subdomain: 'zk-headless' } };

describe('renderPodHosts', () => {
  it('names a pod with a subdomain by its FQDN and its hostname, after localhost', () => {
    const lines = renderPodHosts(member, '10.65.0.7').split('\n');
    expect(lines[1]).toBe('127.0.0.1\tlocalhost');
    expect(lines).toContain('10.65.0.7\tzk-1.zk-headless.kafka.svc.cluster.local\tzk-1');
  });

  it('names a pod without a subdomain by its name, and adds its hostAliases', () => {
    const pod: V1Pod = { metadata: { name: 'web-abc', namespace: 'default' }, spec: { containers: [], hostAliases: [{ ip: '10.1.2.3', hostnames: ['a.example', 'b.example'] }] } };
    const text = renderPodHosts(pod, '10.65.0.8');
    expect(text).toContain('10.65.0.8\tweb-abc\n');
    expect(text).toContain('10.1.2.3\ta.example\tb.example\n');
  });
});

describe('renderPodResolvConf', () => {
  it('points a ClusterFirst pod at cluster DNS, searching its namespace first, with ndots:5', () => {
    expect(renderPodResolvConf(member, dns)).toBe('search kafka.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.97.0.10\noptions ndots:5\n');
  });

  it('gives a Default pod, and a hostNetwork pod that is ClusterFirst, the node’s resolver', () => {
    const node = 'search example.org\nnameserver 192.0.2.1\noptions edns0\n';
    expect(renderPodResolvConf({ ...member, spec: { containers: [], dnsPolicy: 'Default' } }, dns)).toBe(node);
    expect(renderPodResolvConf({ ...member, spec: { containers: [], hostNetwork: true } }, dns)).toBe(node);
    expect(renderPodResolvConf({ ...member, spec: { containers: [], hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' } }, dns)).toContain('nameserver 10.97.0.10\n');
  });

  it('merges dnsConfig in, its options over the policy’s by name; None takes dnsConfig alone', () => {
    const dnsConfig = { nameservers: ['10.9.9.9'], searches: ['corp.example'], options: [{ name: 'ndots', value: '2' }, { name: 'rotate' }] };
    expect(renderPodResolvConf({ ...member, spec: { containers: [], dnsConfig } }, dns)).toBe(
      'search kafka.svc.cluster.local svc.cluster.local cluster.local corp.example\nnameserver 10.97.0.10\nnameserver 10.9.9.9\noptions ndots:2 rotate\n',
    );
    expect(renderPodResolvConf({ ...member, spec: { containers: [], dnsPolicy: 'None', dnsConfig } }, dns)).toBe('search corp.example\nnameserver 10.9.9.9\noptions ndots:2 rotate\n');
  });
});
