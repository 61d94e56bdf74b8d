// Runs a command-line tool to completion: arguments and stdin in, exit code and output out.
import { spawn } from 'node:child_process';
import { once } from 'node:events';

export interface CommandResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CommandPlace {
  readonly cwd?: string;
  /** Added to this process's environment. */
  readonly env?: Readonly<Record<string, string>>;
}

export async function runCommand(executable: string, args: readonly string[], stdin = '', timeoutMs = 120_000, place: CommandPlace = {}): Promise<CommandResult> {
  const env = place.env === undefined ? process.env : { ...process.env, ...place.env };
  const child = spawn(executable, args, { stdio: ['pipe', 'pipe', 'pipe'], timeout: timeoutMs, cwd: place.cwd, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // A tool that exits without reading its stdin (cue, given a file) makes the write fail with EPIPE; its exit code and
  // stderr say what happened, so that failure is not one of its own.
  child.stdin.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') stderr += `stdin: ${error.message}\n`;
  });
  child.stdin.end(stdin);
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}
