// CPU samples of every thread on the machine, kernel and short-lived processes included: `perf record -a` at a fixed
// frequency on every CPU (idle counts as pid 0), read back with `perf script` as (pid, thread name) pairs.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { commandOutput } from '../images/command.js';

export const SAMPLES_PER_SECOND = 49;

export interface ThreadSamples {
  readonly pid: number;
  readonly comm: string;
  readonly samples: number;
}

export class PerfRecording {
  private constructor(private readonly child: ChildProcess, private readonly file: string) {}

  static async start(file: string): Promise<PerfRecording> {
    const child = spawn('perf', ['record', '-a', '-F', String(SAMPLES_PER_SECOND), '-q', '-o', file], { stdio: ['ignore', 'ignore', 'inherit'] });
    await Promise.race([once(child, 'spawn'), once(child, 'error').then(([error]) => Promise.reject(error instanceof Error ? error : new Error(String(error))))]);
    return new PerfRecording(child, file);
  }

  /** Stops recording (perf writes its file on SIGINT) and counts the samples per pid and thread name. */
  async stop(): Promise<ThreadSamples[]> {
    const exited = once(this.child, 'exit');
    this.child.kill('SIGINT');
    await exited;
    const script = await commandOutput('perf', ['script', '-i', this.file, '-F', 'comm,pid']);
    const counts = new Map<string, number>();
    for (const line of script.split('\n')) {
      const match = /^\s*(.*\S)\s+(\d+)\s*$/.exec(line);
      if (match === null) continue;
      const key = `${match[2] ?? ''}\t${match[1] ?? ''}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return [...counts].map(([key, samples]) => {
      const [pid = '0', comm = ''] = key.split('\t');
      return { pid: Number(pid), comm, samples };
    });
  }
}
