// The hosts file pods resolve each other's DNS names through (every container's /etc/hosts), rendered purely.

export interface PodDnsEntry {
  namespace: string;
  hostname: string;
  subdomain: string;
  ip: string;
}

/** The names a pod with hostname and subdomain answers to, longest first. */
export function podDnsNames(entry: PodDnsEntry): string[] {
  const base = `${entry.hostname}.${entry.subdomain}`;
  return [podFqdn(entry), `${base}.${entry.namespace}.svc`, `${base}.${entry.namespace}`, base];
}

export function podFqdn(entry: PodDnsEntry): string {
  return `${entry.hostname}.${entry.subdomain}.${entry.namespace}.svc.cluster.local`;
}

export function renderHostsFile(entries: readonly PodDnsEntry[]): string {
  const lines = ['127.0.0.1 localhost', '::1 localhost'];
  const sorted = [...entries].sort((a, b) => podFqdn(a).localeCompare(podFqdn(b)));
  for (const entry of sorted) {
    lines.push(`${entry.ip} ${podDnsNames(entry).join(' ')}`);
  }
  return `${lines.join('\n')}\n`;
}
