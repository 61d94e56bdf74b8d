// Finds and kills processes left behind by a bed: any process whose command line mentions the bed's
// directory (ZooKeeper servers started by the agent carry it in their arguments).
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export interface FoundProcess {
  pid: number;
  cmdline: string;
}

/** Every process (other than this one and its parent) whose command line contains `text`. */
export function processesMentioning(text: string): FoundProcess[] {
  const spared = new Set([process.pid, process.ppid]);
  const found: FoundProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || spared.has(pid)) continue;
    const cmdline = readCmdline(pid);
    if (cmdline?.includes(text)) found.push({ pid, cmdline });
  }
  return found;
}

function readCmdline(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8').split('\0').join(' ').trim();
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

/** SIGTERM to every straggler mentioning `text`, SIGKILL to those still there after graceMs; returns them. */
export async function reapProcessesMentioning(text: string, graceMs = 5_000): Promise<FoundProcess[]> {
  const stragglers = processesMentioning(text);
  if (stragglers.length === 0) return [];
  for (const p of stragglers) signal(p.pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && stragglers.some((p) => isAlive(p.pid))) await sleep(100);
  for (const p of stragglers) if (isAlive(p.pid)) signal(p.pid, 'SIGKILL');
  while (stragglers.some((p) => isAlive(p.pid))) await sleep(50);
  return stragglers;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'ESRCH')) throw error;
  }
}
