// What a process of ours has used so far, as the benchmarks read it from /proc: resident memory and CPU time.
import { readFile } from 'node:fs/promises';

export interface ProcessUsage {
  readonly rssMiB: number;
  /** User and system CPU time since the process started. */
  readonly cpuSeconds: number;
}

export async function processUsage(pid: number): Promise<ProcessUsage> {
  const [status, stat] = await Promise.all([readFile(`/proc/${String(pid)}/status`, 'utf8'), readFile(`/proc/${String(pid)}/stat`, 'utf8')]);
  // The fields after the command's name, which may itself hold spaces and parentheses: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { rssMiB: Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]) / 1024, cpuSeconds: (Number(fields[11]) + Number(fields[12])) / 100 };
}
