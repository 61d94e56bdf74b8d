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
}

export function apiServerArgs(spec: ApiServerSpec): string[] {
  const { pki } = spec;
  return [
    `--etcd-servers=${spec.etcdUrl}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--secure-port=${String(spec.port)}`,
    `--cert-dir=${join(pki.dir, 'apiserver-generated')}`,
    `--tls-cert-file=${pki.apiserver.certFile}`,
    `--tls-private-key-file=${pki.apiserver.keyFile}`,
    `--client-ca-file=${pki.ca.certFile}`,
    '--authorization-mode=Node,RBAC',
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    `--service-account-key-file=${pki.serviceAccountPublicKeyFile}`,
    `--service-account-signing-key-file=${pki.serviceAccountKeyFile}`,
    '--service-cluster-ip-range=10.96.0.0/16',
    // The bed has no Service network: the `kubernetes` Service keeps no endpoints instead of a loopback one.
    '--endpoint-reconciler-type=none',
    '--allow-privileged=true',
    `--audit-policy-file=${writeAuditPolicy(join(spec.bedDir, 'audit-policy.yaml'))}`,
    `--audit-log-path=${join(spec.bedDir, 'audit.log')}`,
  ];
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
