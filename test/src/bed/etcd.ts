// etcd for the bed: one member on two free loopback ports, data under <dir>/etcd, no fsync (tests trade
// durability across machine crashes for speed on small disks).
import { join } from 'node:path';
import { freePorts } from './ports.js';
import { LOCAL_POLL_INTERVAL_MS, waitFor } from '../wait-for.js';
import { httpStatus } from './http-status.js';
import { exitEndsWait, startWhenReady, type ManagedProcess } from './process.js';

export interface Etcd {
  process: ManagedProcess;
  clientUrl: string;
}

export async function startEtcd(options: { bedDir: string; binary: string; timeoutMs: number }): Promise<Etcd> {
  const [clientPort, peerPort] = await freePorts(2);
  const clientUrl = `http://127.0.0.1:${String(clientPort)}`;
  const peerUrl = `http://127.0.0.1:${String(peerPort)}`;
  const args = [
    '--name=bed',
    `--data-dir=${join(options.bedDir, 'etcd')}`,
    `--listen-client-urls=${clientUrl}`,
    `--advertise-client-urls=${clientUrl}`,
    `--listen-peer-urls=${peerUrl}`,
    `--initial-advertise-peer-urls=${peerUrl}`,
    `--initial-cluster=bed=${peerUrl}`,
    '--unsafe-no-fsync=true',
    '--log-level=warn',
  ];
  const process = await startWhenReady({ name: 'etcd', command: options.binary, args, bedDir: options.bedDir }, (started) =>
    waitFor('etcd /health', () => httpStatus(`${clientUrl}/health`), (status) => status === 200, options.timeoutMs, LOCAL_POLL_INTERVAL_MS, exitEndsWait([started])),
  );
  return { process, clientUrl };
}
