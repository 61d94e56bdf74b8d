// Starts etcd, kube-apiserver and (unless disabled) kube-controller-manager and kube-scheduler for a bed
// directory; writes the admin kubeconfig to <dir>/kubeconfig; stops them all, newest first.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { startApiServer, type ApiServerNetwork, type ApiServerSpec } from './apiserver.js';
import { resolveBinaries, type Binaries } from './binaries.js';
import { startControllerManager, startScheduler, type ComponentSpec } from './controllers.js';
import { waitForDefaultServiceAccount } from './controllers-ready.js';
import { startEtcd } from './etcd.js';
import { writeKubeconfig } from './kubeconfig.js';
import { createPki, readPem, type KeyPair, type Pki } from './pki.js';
import { freePort } from './ports.js';
import { killOnProcessExit, type ManagedProcess } from './process.js';
import { settleAll } from './settle.js';
import { supervise, type BedChild } from './supervise.js';
import { timed } from './timing.js';

const apiServerRestartGraceMs = 3_000;

export interface ControlPlaneOptions {
  dir: string;
  log: Logger;
  /** Start kube-controller-manager and kube-scheduler too (default true). */
  controllers?: boolean;
  /** Binaries to use; resolved with resolveBinaries() when absent. */
  binaries?: Binaries;
  timeoutMs?: number;
  /** kube-controller-manager's `--kube-api-qps` (burst twice that); its default, 20/s, when absent. */
  controllerManagerApiQps?: number | undefined;
  /** The bed's network (bed-network.ts); without it the apiserver stays on loopback and Services have no endpoints. */
  network?: (ApiServerNetwork & { readonly apiServiceIp: string }) | undefined;
}

export interface ControlPlane {
  dir: string;
  kubeconfig: string;
  server: string;
  /** The apiserver's port, on every address it listens on. */
  port: number;
  binaries: Binaries;
  pki: Pki;
  /** Pids of the processes running now, by name. */
  pids(): Record<string, number>;
  /** Stops kube-apiserver and starts it again on the same port with the same flags; resolves once ready. */
  restartApiServer(): Promise<void>;
  stop(): Promise<void>;
}

export async function startControlPlane(options: ControlPlaneOptions): Promise<ControlPlane> {
  const { dir, log, network } = options;
  const timeoutMs = options.timeoutMs ?? 120_000;
  mkdirSync(dir, { recursive: true });
  const binaries = options.binaries ?? (await resolveBinaries());
  const processes: BedChild[] = [];
  const forgetProcesses = killOnProcessExit(() => processes);
  const stop = async (): Promise<void> => {
    for (const p of [...processes].reverse()) {
      const status = await p.stop();
      log.debug({ process: p.name, pid: p.pid, status }, 'stopped');
    }
    forgetProcesses();
  };
  try {
    const pki = await timed(log, 'PKI', () => createPki(join(dir, 'pki'), network === undefined ? [] : [network.hostAddress, network.apiServiceIp]));
    const etcd = await timed(log, 'etcd', () => startEtcd({ bedDir: dir, binary: binaries.etcd, timeoutMs }));
    processes.push(etcd.process);
    const port = await freePort();
    const server = `https://127.0.0.1:${String(port)}`;
    const apiSpec: ApiServerSpec = {
      bedDir: dir,
      binary: binaries.kubeApiserver,
      pki,
      etcdUrl: etcd.clientUrl,
      port,
      timeoutMs,
      network,
    };
    let apiserver = await timed(log, 'kube-apiserver', () => startApiServer(apiSpec));
    processes.push(apiserver);
    const kubeconfigFor = (file: string, user: string, pair: KeyPair): string =>
      writeKubeconfig(file, {
        server,
        caPem: readPem(pki.ca.certFile),
        user,
        credentials: { kind: 'client-certificate', certPem: readPem(pair.certFile), keyPem: readPem(pair.keyFile) },
      });
    const kubeconfig = kubeconfigFor(join(dir, 'kubeconfig'), 'bed-admin', pki.admin);
    if (options.controllers ?? true) {
      const kcmSpec: ComponentSpec = {
        bedDir: dir,
        pki,
        timeoutMs,
        binary: binaries.kubeControllerManager,
        apiQps: options.controllerManagerApiQps,
        kubeconfig: kubeconfigFor(
          join(dir, 'kube-controller-manager.kubeconfig'),
          'system:kube-controller-manager',
          pki.controllerManager,
        ),
      };
      const schedulerSpec: ComponentSpec = {
        bedDir: dir,
        pki,
        timeoutMs,
        binary: binaries.kubeScheduler,
        kubeconfig: kubeconfigFor(join(dir, 'kube-scheduler.kubeconfig'), 'system:kube-scheduler', pki.scheduler),
      };
      const startSupervised = async (name: string, start: () => Promise<ManagedProcess>): Promise<void> => {
        const first = await timed(log, name, start);
        processes.push(supervise(first, start, log));
      };
      await settleAll([
        startSupervised('kube-controller-manager', () => startControllerManager(kcmSpec)),
        startSupervised('kube-scheduler', () => startScheduler(schedulerSpec)),
      ]);
      await timed(log, 'controllers', () => waitForDefaultServiceAccount(kubeconfig, timeoutMs));
    }
    return {
      dir,
      kubeconfig,
      server,
      port,
      binaries,
      pki,
      pids: () => Object.fromEntries(processes.filter((p) => p.isRunning()).map((p) => [p.name, p.pid])),
      restartApiServer: async () => {
        // A shorter grace than stop(): the apiserver drains its watches for ~10s otherwise.
        await apiserver.stop(apiServerRestartGraceMs);
        const restarted = await timed(log, 'kube-apiserver restart', () => startApiServer(apiSpec));
        processes.splice(processes.indexOf(apiserver), 1, restarted);
        apiserver = restarted;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
