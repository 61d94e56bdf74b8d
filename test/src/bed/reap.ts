// Finds and kills processes left behind by a bed: any process whose command line mentions the bed's
// directory, or whose pod marker (ZK_OAM_BED_POD_DIR, set by the agent on every pod process) points into it.
// Only the marker is read from the environment: a user's shell may well carry the bed's KUBECONFIG.
import { readdirSync, readFileSync } from 'node:fs';
import { podDirEnvName } from '../agent/pid-registry.js';
import { waitFor, WaitTimeoutError } from '../wait-for.js';

export interface FoundProcess {
  pid: number;
  cmdline: string;
}

/** Every process (other than this one and its parent) whose command line or pod marker contains `text`. */
export function processesMentioning(text: string): FoundProcess[] {
  const spared = new Set([process.pid, process.ppid]);
  const found: FoundProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || spared.has(pid)) continue;
    const cmdline = readProcFile(pid, 'cmdline')?.split('\0').join(' ').trim();
    if (cmdline === undefined) continue;
    if (cmdline.includes(text) || podMarker(pid)?.includes(text)) found.push({ pid, cmdline });
  }
  return found;
}

function podMarker(pid: number): string | undefined {
  const marker = `${podDirEnvName}=`;
  return readProcFile(pid, 'environ')
    ?.split('\0')
    .find((entry) => entry.startsWith(marker))
    ?.slice(marker.length);
}

function readProcFile(pid: number, file: 'cmdline' | 'environ'): string | undefined {
  try {
    return readFileSync(`/proc/${String(pid)}/${file}`, 'utf8');
  } catch {
    // The process exited between listing /proc and reading it: nothing to report.
    return undefined;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM means it exists but belongs to someone else: still alive.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

/** SIGKILL cannot be ignored: a straggler still there after this is stuck in the kernel, which is worth an error. */
const KILLED_GONE_WITHIN_MS = 60_000;

/** SIGTERM to every straggler mentioning `text`, SIGKILL to those still there after graceMs; returns them. */
export async function reapProcessesMentioning(text: string, graceMs = 5_000): Promise<FoundProcess[]> {
  const stragglers = processesMentioning(text);
  if (stragglers.length === 0) return [];
  const alive = (): Promise<number[]> => Promise.resolve(stragglers.filter((p) => isAlive(p.pid)).map((p) => p.pid));
  const none = (pids: number[]): boolean => pids.length === 0;
  for (const p of stragglers) signal(p.pid, 'SIGTERM');
  await waitFor(`${String(stragglers.length)} processes to exit on SIGTERM`, alive, none, graceMs, 100).catch((error: unknown) => {
    if (!(error instanceof WaitTimeoutError)) throw error;
  });
  for (const p of stragglers) if (isAlive(p.pid)) signal(p.pid, 'SIGKILL');
  await waitFor(`${String(stragglers.length)} processes to exit on SIGKILL`, alive, none, KILLED_GONE_WITHIN_MS, 50);
  return stragglers;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'ESRCH')) throw error;
  }
}
