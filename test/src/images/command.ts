// Runs one of the image tools (buildah, skopeo, umoci, runc) to its end, through the tests' one runner: its stdout as
// the answer, its stderr kept for the error that says why it failed.
import { runCommand } from '../controllers/command.js';

/** A build of the bases takes many minutes on a loaded machine: no time limit of the runner's own. */
export const NO_TIME_LIMIT = 0;

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

/** Runs `command args` and answers its stdout; a non-zero exit is a CommandError with the end of its stderr. */
export async function commandOutput(command: string, args: readonly string[], options: { cwd?: string } = {}): Promise<string> {
  const result = await runCommand(command, args, '', NO_TIME_LIMIT, options);
  if (result.code !== 0) throw new CommandError([command, ...args].join(' '), result.code, result.stderr || result.stdout);
  return result.stdout;
}
