// kube-apiserver for the bed: https on a loopback port, client certificates from the bed CA, Node+RBAC
// authorization, service-account tokens, an audit log of writes; restartable on the same port and flags.
import { join } from 'node:path';
import { writeAuditPolicy } from './audit-policy.js';
import type { Pki } from './pki.js';
import { readPem } from './pki.js';
import { LOCAL_POLL_INTERVAL_MS, waitFor } from '../wait-for.js';
import { httpsStatus } from './http-status.js';
import { exitEndsWait, startWhenReady, type ManagedProcess } from './process.js';

export interface ApiServerSpec {
  bedDir: string;
  binary: string;
  pki: Pki;
  etcdUrl: string;
  port: number;
  timeoutMs: number;
  /** The bed's network, when it has one: pods reach the apiserver through the `kubernetes` Service in its range. */
  network?: ApiServerNetwork | undefined;
}

export interface ApiServerNetwork {
  /** The address pods reach the apiserver at (the `kubernetes` Service's endpoint). */
  readonly hostAddress: string;
  readonly serviceCidr: string;
}

export function apiServerArgs(spec: ApiServerSpec): string[] {
  const { pki } = spec;
  return [
    `--etcd-servers=${spec.etcdUrl}`,
    ...networkArgs(spec.network),
    `--secure-port=${String(spec.port)}`,
    `--cert-dir=${join(pki.dir, 'apiserver-generated')}`,
    `--tls-cert-file=${pki.apiserver.certFile}`,
    `--tls-private-key-file=${pki.apiserver.keyFile}`,
    `--client-ca-file=${pki.ca.certFile}`,
    '--authorization-mode=Node,RBAC',
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    `--service-account-key-file=${pki.serviceAccountPublicKeyFile}`,
    `--service-account-signing-key-file=${pki.serviceAccountKeyFile}`,
    '--allow-privileged=true',
    `--audit-policy-file=${writeAuditPolicy(join(spec.bedDir, 'audit-policy.yaml'))}`,
    `--audit-log-path=${join(spec.bedDir, 'audit.log')}`,
    // Unset, the log rotates at 100 MB, which 1,000 ensembles of a benchmark pass: a reader's offset would then point
    // past the end of a new file. 100 GiB is never reached in a bed's life.
    '--audit-log-maxsize=102400',
  ];
}

/**
 * In a bed network the apiserver listens on every address of the bed's namespace (which is the bed's alone) and
 * advertises the one pods reach, which becomes the `kubernetes` Service's endpoint. Without one (a control plane on its
 * own) it stays on loopback, and the Service keeps no endpoints rather than a loopback one, which EndpointSlices refuse.
 */
function networkArgs(network: ApiServerNetwork | undefined): string[] {
  if (network === undefined) {
    return ['--bind-address=127.0.0.1', '--advertise-address=127.0.0.1', '--service-cluster-ip-range=10.96.0.0/16', '--endpoint-reconciler-type=none'];
  }
  return ['--bind-address=0.0.0.0', `--advertise-address=${network.hostAddress}`, `--service-cluster-ip-range=${network.serviceCidr}`];
}

/** Starts the apiserver and waits until /readyz answers 200 to the admin. */
export async function startApiServer(spec: ApiServerSpec): Promise<ManagedProcess> {
  const { ca, admin } = spec.pki;
  const tls = { ca: readPem(ca.certFile), cert: readPem(admin.certFile), key: readPem(admin.keyFile) };
  const readyz = `https://127.0.0.1:${String(spec.port)}/readyz`;
  return startWhenReady(
    { name: 'kube-apiserver', command: spec.binary, args: apiServerArgs(spec), bedDir: spec.bedDir },
    (started) =>
      waitFor('kube-apiserver /readyz', () => httpsStatus(readyz, tls), (status) => status === 200, spec.timeoutMs, LOCAL_POLL_INTERVAL_MS, exitEndsWait([started])),
  );
}
