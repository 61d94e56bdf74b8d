// A third-party binary run beside the bed as the bed's admin (kubeconfig in KUBECONFIG), its output in
// <bed>/logs/<name>.log, stopped with SIGTERM.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BedInfo } from '../bed/index.js';

export interface LoggedProcess {
  readonly logFile: string;
  /** Whether it has exited (by itself or after stop()). */
  exited(): boolean;
  /** SIGTERM, then its exit code (null when a signal ended it). */
  stop(): Promise<number | null>;
}

export async function startLoggedProcess(bed: Pick<BedInfo, 'dir' | 'kubeconfig'>, name: string, executable: string, args: readonly string[] = []): Promise<LoggedProcess> {
  const logDir = join(bed.dir, 'logs');
  await mkdir(logDir, { recursive: true });
  const logFile = join(logDir, `${name}.log`);
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(executable, args, { env: { ...process.env, KUBECONFIG: bed.kubeconfig }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const exited = (): boolean => child.exitCode !== null || child.signalCode !== null;
  return {
    logFile,
    exited,
    stop: async () => {
      if (exited()) return child.exitCode;
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    },
  };
}
