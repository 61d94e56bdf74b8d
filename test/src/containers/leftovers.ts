// What an earlier run (an agent killed before it could stop its containers) left under a runc root: each container
// killed and deleted, then every container directory removed. Their overlay mounts went with their mount namespaces.
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Runc } from './runc.js';

export async function removeLeftoverContainers(runc: Runc, containersDir: string, log: Logger): Promise<void> {
  for (const container of await runc.list()) {
    log.warn({ container: container.id, containerPid: container.pid, status: container.status }, 'removing a container left by an earlier run');
    await runc.kill(container.id, 'KILL');
    await runc.delete(container.id);
  }
  await mkdir(containersDir, { recursive: true });
  for (const entry of await readdir(containersDir)) await rm(join(containersDir, entry), { recursive: true, force: true });
}
