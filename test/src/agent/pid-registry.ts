// Records the process groups the agent started under <dir>/pids, so a restarted agent can kill what it left behind.
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';

/** The env var every container and probe process carries, naming its pod directory; marks processes as ours. */
export const podDirEnvName = 'ZK_OAM_BED_POD_DIR';

export class PidRegistry {
  constructor(private readonly directory: string) {}

  async record(podKey: string, pid: number): Promise<void> {
    await mkdir(this.directory, { recursive: true });
    await writeFile(this.file(podKey), String(pid));
  }

  async forget(podKey: string): Promise<void> {
    await rm(this.file(podKey), { force: true });
  }

  /** Kills the process group of every recorded pid that still carries our pod-dir marker, then clears the records. */
  async killStale(log: Logger): Promise<void> {
    await mkdir(this.directory, { recursive: true });
    for (const entry of await readdir(this.directory)) {
      const pid = Number((await readFile(join(this.directory, entry), 'utf8')).trim());
      if (Number.isInteger(pid) && pid > 1 && (await carriesMarker(pid))) {
        log.warn({ stalePid: pid, pod: entry }, 'killing process group left by an earlier agent');
        killGroup(pid, 'SIGKILL');
      }
      await rm(join(this.directory, entry), { force: true });
    }
  }

  private file(podKey: string): string {
    return join(this.directory, podKey.replace('/', '_'));
  }
}

/** Signals a whole process group; a group that is already gone is not an error. */
export function killGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ESRCH') {
      return false;
    }
    throw error;
  }
}

async function carriesMarker(pid: number): Promise<boolean> {
  try {
    const environ = await readFile(`/proc/${pid}/environ`, 'utf8');
    return environ.split('\0').some((entry) => entry.startsWith(`${podDirEnvName}=`));
  } catch {
    return false; // no such process (or not readable): nothing of ours to kill
  }
}
