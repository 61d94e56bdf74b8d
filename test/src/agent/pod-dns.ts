// The /etc/hosts and /etc/resolv.conf a kubelet writes for each pod, rendered purely: the hosts file names the pod
// itself (its hostname, and its FQDN when it has a subdomain) and its hostAliases; resolv.conf points at cluster DNS
// by the pod's dnsPolicy, with its dnsConfig merged in.
import type { V1Pod, V1PodDNSConfig } from '@kubernetes/client-node';

export const CLUSTER_DOMAIN = 'cluster.local';

export interface ClusterDns {
  /** The kube-dns Service's ClusterIP. */
  readonly nameserver: string;
  /** The node's own resolv.conf, which dnsPolicy Default gives a pod. */
  readonly nodeResolvConf: string;
}

export function renderPodHosts(pod: V1Pod, podIP: string): string {
  const hostname = pod.spec?.hostname ?? pod.metadata?.name ?? '';
  const subdomain = pod.spec?.subdomain;
  const namespace = pod.metadata?.namespace ?? '';
  const lines = [
    '# Kubernetes-managed hosts file.',
    '127.0.0.1\tlocalhost',
    '::1\tlocalhost ip6-localhost ip6-loopback',
    'fe00::0\tip6-localnet',
    'fe00::0\tip6-mcastprefix',
    'fe00::1\tip6-allnodes',
    'fe00::2\tip6-allrouters',
    subdomain ? `${podIP}\t${hostname}.${subdomain}.${namespace}.svc.${CLUSTER_DOMAIN}\t${hostname}` : `${podIP}\t${hostname}`,
  ];
  const aliases = pod.spec?.hostAliases ?? [];
  if (aliases.length > 0) {
    lines.push('', '# Entries added by HostAliases.');
    for (const alias of aliases) lines.push(`${alias.ip}\t${(alias.hostnames ?? []).join('\t')}`);
  }
  return `${lines.join('\n')}\n`;
}

interface Resolver {
  nameservers: string[];
  searches: string[];
  options: string[];
}

/** The pod's resolv.conf by its dnsPolicy (ClusterFirst by default), as kubelet makes it. */
export function renderPodResolvConf(pod: V1Pod, dns: ClusterDns): string {
  const resolver = withDnsConfig(policyResolver(pod, dns), pod.spec?.dnsConfig);
  return [
    ...(resolver.searches.length > 0 ? [`search ${resolver.searches.join(' ')}`] : []),
    ...resolver.nameservers.map((nameserver) => `nameserver ${nameserver}`),
    ...(resolver.options.length > 0 ? [`options ${resolver.options.join(' ')}`] : []),
    '',
  ].join('\n');
}

/** ClusterFirst (for a hostNetwork pod only when it says ClusterFirstWithHostNet): cluster DNS; Default: the node's; None: nothing. */
function policyResolver(pod: V1Pod, dns: ClusterDns): Resolver {
  const policy = pod.spec?.dnsPolicy ?? 'ClusterFirst';
  if (policy === 'None') return { nameservers: [], searches: [], options: [] };
  const clusterFirst = policy === 'ClusterFirstWithHostNet' || (policy === 'ClusterFirst' && pod.spec?.hostNetwork !== true);
  if (!clusterFirst) return parseResolvConf(dns.nodeResolvConf);
  const namespace = pod.metadata?.namespace ?? '';
  return { nameservers: [dns.nameserver], searches: [`${namespace}.svc.${CLUSTER_DOMAIN}`, `svc.${CLUSTER_DOMAIN}`, CLUSTER_DOMAIN], options: ['ndots:5'] };
}

/** dnsConfig's nameservers and searches after the policy's, its options over the policy's by name. */
function withDnsConfig(base: Resolver, config: V1PodDNSConfig | undefined): Resolver {
  const options = new Map(base.options.map((option) => [option.split(':')[0] ?? option, option]));
  for (const { name = '', value } of config?.options ?? []) {
    if (name !== '') options.set(name, value === undefined ? name : `${name}:${value}`);
  }
  return {
    nameservers: unique([...base.nameservers, ...(config?.nameservers ?? [])]),
    searches: unique([...base.searches, ...(config?.searches ?? [])]),
    options: [...options.values()],
  };
}

function parseResolvConf(text: string): Resolver {
  const resolver: Resolver = { nameservers: [], searches: [], options: [] };
  for (const line of text.split('\n')) {
    const [keyword, ...values] = line.trim().split(/\s+/);
    if (keyword === 'nameserver') resolver.nameservers.push(...values.slice(0, 1));
    else if (keyword === 'search' || keyword === 'domain') resolver.searches = values;
    else if (keyword === 'options') resolver.options.push(...values);
  }
  return resolver;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
