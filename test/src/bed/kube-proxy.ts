// kube-proxy for the bed's nodes, in their network namespace: nftables mode, every Service's ClusterIP sent to its
// endpoints. It masquerades all Service traffic: pods on one bridge answer each other directly otherwise, around the
// translation. Identity `system:kube-proxy` (bound to system:node-proxier by the apiserver's bootstrap policy).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { BedAddresses } from './bed-network.js';
import { httpStatus } from './http-status.js';
import { writeKubeconfig } from './kubeconfig.js';
import { readPem, type Pki } from './pki.js';
import { exitEndsWait, startWhenReady, type ManagedProcess } from './process.js';
import { LOCAL_POLL_INTERVAL_MS, waitFor } from '../wait-for.js';

export interface KubeProxySpec {
  bedDir: string;
  binary: string;
  pki: Pki;
  network: BedAddresses;
  /** The apiserver's port, reached at the bed's address from the nodes' namespace. */
  apiServerPort: number;
  /** The Node whose name kube-proxy goes by (the bed's nodes share one network, so one kube-proxy serves them all). */
  nodeName: string;
  timeoutMs: number;
}

const HEALTH_PORT = 10256;
const METRICS_PORT = 10249;

/** kube-proxy's configuration file. Pure. */
export function renderKubeProxyConfig(spec: Pick<KubeProxySpec, 'network' | 'nodeName'>, kubeconfig: string): string {
  const { network } = spec;
  return stringify({
    apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
    kind: 'KubeProxyConfiguration',
    clientConnection: { kubeconfig },
    mode: 'nftables',
    hostnameOverride: spec.nodeName,
    clusterCIDR: network.podCidr,
    healthzBindAddress: `${network.nodeAddress}:${String(HEALTH_PORT)}`,
    metricsBindAddress: `${network.nodeAddress}:${String(METRICS_PORT)}`,
    nftables: { masqueradeAll: true },
    // Conntrack's table size and timeouts are left as they are: most are the machine's, not a namespace's.
    conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: '0s', tcpCloseWaitTimeout: '0s' },
    // A Service's NodePorts would open on the nodes' address only.
    nodePortAddresses: [`${network.nodeAddress}/32`],
  });
}

export function startKubeProxy(spec: KubeProxySpec): Promise<ManagedProcess> {
  const kubeconfig = writeKubeconfig(join(spec.bedDir, 'kube-proxy.kubeconfig'), {
    server: `https://${spec.network.hostAddress}:${String(spec.apiServerPort)}`,
    caPem: readPem(spec.pki.ca.certFile),
    user: 'system:kube-proxy',
    credentials: { kind: 'client-certificate', certPem: readPem(spec.pki.kubeProxy.certFile), keyPem: readPem(spec.pki.kubeProxy.keyFile) },
  });
  const config = join(spec.bedDir, 'kube-proxy.yaml');
  writeFileSync(config, renderKubeProxyConfig(spec, kubeconfig));
  const healthz = `http://${spec.network.nodeAddress}:${String(HEALTH_PORT)}/healthz`;
  return startWhenReady(
    {
      name: 'kube-proxy',
      command: 'ip',
      args: ['netns', 'exec', spec.network.nodeNamespace, spec.binary, `--config=${config}`],
      bedDir: spec.bedDir,
    },
    // 200 once it has programmed the rules for what it read from the apiserver.
    (started) => waitFor('kube-proxy /healthz', () => httpStatus(healthz).catch(() => 0), (status) => status === 200, spec.timeoutMs, LOCAL_POLL_INTERVAL_MS, exitEndsWait([started])),
  );
}
