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
};

const bedInfoSchema = z.object({
  dir: z.string(),
  kubeconfig: z.string(),
  server: z.string(),
  nats: z.object({ url: z.string(), user: z.string(), password: z.string() }),
  nodes: z.array(z.string()),
  binDir: z.string(),
  registry: z.string(),
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
