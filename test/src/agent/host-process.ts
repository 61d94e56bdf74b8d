// Launches a pod's container as a host process group (the bed's way before containers): the launcher ContainerProcess
// supervises, with exec probes run as host processes with the same environment.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import type { ExecOutcome } from '../containers/runc.js';
import type { ContainerExit } from '../containers/container-run.js';
import type { ContainerLauncher } from './container-process.js';
import { killGroup } from './pid-registry.js';

export interface HostLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  logFile: string;
  /** An exec probe's command as a host command (mount paths mapped). */
  execCommand(args: readonly string[]): string[];
}

const signalNumbers: Partial<Record<string, number>> = { SIGKILL: 9, SIGTERM: 15 };

export function hostLauncher(launch: HostLaunch): ContainerLauncher {
  return async () => {
    const output = openSync(launch.logFile, 'a');
    try {
      const child = spawn(launch.command, launch.args, { cwd: launch.cwd, env: launch.env, detached: true, stdio: ['ignore', output, output] });
      const exited = new Promise<ContainerExit>((resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (code, signal) => {
          if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL'); // leftovers of the group would keep the pod's ports
          resolve(signal === null ? { exitCode: code ?? 128 } : { exitCode: 128 + (signalNumbers[signal] ?? 0), signal });
        });
      });
      const pid = child.pid;
      if (pid === undefined) {
        await exited;
        throw new Error(`${launch.command} did not start`);
      }
      return {
        id: String(pid),
        pid,
        exited,
        kill: (signal) => {
          killGroup(pid, signal === 'TERM' ? 'SIGTERM' : 'SIGKILL');
          return Promise.resolve();
        },
        exec: (args, timeoutMs) => runExec(launch.execCommand(args), launch, timeoutMs),
      };
    } finally {
      closeSync(output);
    }
  };
}

function runExec(words: readonly string[], launch: HostLaunch, timeoutMs: number): Promise<ExecOutcome> {
  const [command = '', ...args] = words;
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: launch.cwd, env: launch.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-500);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ exitCode: 128, output: error.message });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: timedOut ? null : code, output: output.trim() });
    });
  });
}
