// kube-controller-manager and kube-scheduler for the bed, each with its own client certificate identity,
// leader election off, serving health on a loopback port the bed polls.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { Pki } from './pki.js';
import { freePort } from './ports.js';
import { LOCAL_POLL_INTERVAL_MS, waitFor } from '../wait-for.js';
import { httpsStatus } from './http-status.js';
import { exitEndsWait, startWhenReady, type ManagedProcess } from './process.js';

export interface ComponentSpec {
  bedDir: string;
  binary: string;
  pki: Pki;
  /** Kubeconfig of the component's own identity. */
  kubeconfig: string;
  timeoutMs: number;
  /** Client request rate to the apiserver (`--kube-api-qps`, burst twice that); the component's default when absent. */
  apiQps?: number | undefined;
}

export async function startControllerManager(spec: ComponentSpec): Promise<ManagedProcess> {
  const port = await freePort();
  const args = [
    `--kubeconfig=${spec.kubeconfig}`,
    `--authentication-kubeconfig=${spec.kubeconfig}`,
    `--authorization-kubeconfig=${spec.kubeconfig}`,
    '--bind-address=127.0.0.1',
    `--secure-port=${String(port)}`,
    `--cert-dir=${join(spec.pki.dir, 'kube-controller-manager-generated')}`,
    '--leader-elect=false',
    '--use-service-account-credentials=true',
    `--service-account-private-key-file=${spec.pki.serviceAccountKeyFile}`,
    `--root-ca-file=${spec.pki.ca.certFile}`,
    `--cluster-signing-cert-file=${spec.pki.ca.certFile}`,
    `--cluster-signing-key-file=${spec.pki.ca.keyFile}`,
    '--cluster-name=zk-oam-bed',
    ...(spec.apiQps === undefined ? [] : [`--kube-api-qps=${String(spec.apiQps)}`, `--kube-api-burst=${String(spec.apiQps * 2)}`]),
  ];
  return startWhenReady({ name: 'kube-controller-manager', command: spec.binary, args, bedDir: spec.bedDir }, (started) =>
    waitForHealth('kube-controller-manager', port, started, spec.timeoutMs),
  );
}

export async function startScheduler(spec: ComponentSpec): Promise<ManagedProcess> {
  const port = await freePort();
  const config = join(spec.bedDir, 'kube-scheduler.yaml');
  writeFileSync(
    config,
    stringify({
      apiVersion: 'kubescheduler.config.k8s.io/v1',
      kind: 'KubeSchedulerConfiguration',
      clientConnection: { kubeconfig: spec.kubeconfig },
      leaderElection: { leaderElect: false },
    }),
  );
  const args = [
    `--config=${config}`,
    `--authentication-kubeconfig=${spec.kubeconfig}`,
    `--authorization-kubeconfig=${spec.kubeconfig}`,
    '--bind-address=127.0.0.1',
    `--secure-port=${String(port)}`,
    `--cert-dir=${join(spec.pki.dir, 'kube-scheduler-generated')}`,
  ];
  return startWhenReady({ name: 'kube-scheduler', command: spec.binary, args, bedDir: spec.bedDir }, (started) =>
    waitForHealth('kube-scheduler', port, started, spec.timeoutMs),
  );
}

/** /healthz is always allowed without credentials; the serving certificate is self-signed. */
async function waitForHealth(name: string, port: number, process: ManagedProcess, timeoutMs: number): Promise<void> {
  const healthz = `https://127.0.0.1:${String(port)}/healthz`;
  await waitFor(`${name} /healthz`, () => httpsStatus(healthz, { insecure: true }), (status) => status === 200, timeoutMs, LOCAL_POLL_INTERVAL_MS, exitEndsWait([process]));
}
