// Where `npm run cluster:up` keeps a background bed's state (<repo>/.cluster/), and reading it back.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { BedInfo } from './bed/index.js';
import { isAlive } from './bed/reap.js';
import { repoRoot } from './bed/paths.js';

export const clusterDir = join(repoRoot(), '.cluster');
export const clusterFiles = {
  pid: join(clusterDir, 'bed.pid'),
  ready: join(clusterDir, 'bed.json'),
  nats: join(clusterDir, 'nats.json'),
  daemonLog: join(clusterDir, 'daemon.log'),
  kubeconfig: join(clusterDir, 'kubeconfig'),
  /** The doors the daemon serves from the bed's network (door.ts), and the loopback ports the keeper opened for them. */
  doors: join(clusterDir, 'doors.json'),
  openDoors: join(clusterDir, 'open-doors.json'),
};

/** A door the daemon serves: its unix socket, and the loopback port wanted outside (0: any free one). */
export const doorSchema = z.object({ name: z.string(), socket: z.string(), port: z.number().int().min(0).max(65535) });
export type Door = z.infer<typeof doorSchema>;
const openDoorsSchema = z.record(z.string(), z.number().int());

/** The loopback port each door opened on outside the bed's network, by name, once the keeper has opened them. */
export function openDoors(): Record<string, number> | undefined {
  if (!existsSync(clusterFiles.openDoors)) return undefined;
  return openDoorsSchema.parse(JSON.parse(readFileSync(clusterFiles.openDoors, 'utf8')));
}

const bedInfoSchema = z.object({
  dir: z.string(),
  kubeconfig: z.string(),
  server: z.string(),
  nats: z.object({ url: z.string(), user: z.string(), password: z.string() }),
  nodes: z.array(z.string()),
  binDir: z.string(),
  registry: z.string(),
  resolvConf: z.string(),
  network: z.object({
    nodeNamespace: z.string(),
    hostInterface: z.string(),
    hostAddress: z.string(),
    nodeAddress: z.string(),
    podCidr: z.string(),
    serviceCidr: z.string(),
    apiServiceIp: z.string(),
    dnsServiceIp: z.string(),
  }),
});

/** The pid of the daemon holding the bed, when one is alive. */
export function daemonPid(): number | undefined {
  if (!existsSync(clusterFiles.pid)) return undefined;
  const pid = Number(readFileSync(clusterFiles.pid, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : undefined;
}

/** The running bed's description, once the daemon has written it (i.e. the bed is ready). */
export function readyInfo(): BedInfo | undefined {
  if (!existsSync(clusterFiles.ready)) return undefined;
  return bedInfoSchema.parse(JSON.parse(readFileSync(clusterFiles.ready, 'utf8')));
}
