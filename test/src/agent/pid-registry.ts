// Records the host pid of each pod's running container (its first process) under <dir>/pids/<ns>_<name>: where tests
// find a pod's process. A new agent starts with none: what its predecessor ran is gone (containers/leftovers.ts).
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The env var every container process carries, naming its pod directory: the bed's reaper finds a crashed bed's by it. */
export const podDirEnvName = 'ZK_OAM_BED_POD_DIR';

export class PidRegistry {
  constructor(private readonly directory: string) {}

  async clear(): Promise<void> {
    await rm(this.directory, { recursive: true, force: true });
    await mkdir(this.directory, { recursive: true });
  }

  async record(podKey: string, pid: number): Promise<void> {
    await mkdir(this.directory, { recursive: true });
    await writeFile(this.file(podKey), String(pid));
  }

  async forget(podKey: string): Promise<void> {
    await rm(this.file(podKey), { force: true });
  }

  private file(podKey: string): string {
    return join(this.directory, podKey.replace('/', '_'));
  }
}
