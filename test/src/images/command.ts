// Runs one of the image tools (buildah, skopeo, umoci, runc) to its end: its stdout as the answer, its stderr kept for
// the error that says why it failed.
import { spawn } from 'node:child_process';

export class CommandError extends Error {
  constructor(
    readonly command: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`${command} exited with ${String(exitCode)}: ${stderr.trim().split('\n').slice(-15).join('\n')}`);
    this.name = 'CommandError';
  }
}

export interface CommandResult {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `command args`, whatever its exit code. */
export async function runCommand(command: string, args: readonly string[], options: { cwd?: string } = {}): Promise<CommandResult> {
  const child = spawn(command, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  return { exitCode, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') };
}

/** Runs `command args` and answers its stdout; a non-zero exit is a CommandError with the end of its stderr. */
export async function commandOutput(command: string, args: readonly string[], options: { cwd?: string } = {}): Promise<string> {
  const result = await runCommand(command, args, options);
  if (result.exitCode !== 0) throw new CommandError([command, ...args].join(' '), result.exitCode, result.stderr || result.stdout);
  return result.stdout;
}
