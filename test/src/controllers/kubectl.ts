// Runs the bed's kubectl as admin: arguments in, stdout out; a non-zero exit is an error carrying stderr.
import { join } from 'node:path';
import type { BedInfo } from '../bed/index.js';
import { runCommand } from './command.js';

export class KubectlError extends Error {
  override readonly name = 'KubectlError';
  constructor(args: readonly string[], code: number | null, stderr: string) {
    super(`kubectl ${args.join(' ')} exited with ${String(code)}: ${stderr.trim()}`);
  }
}

export async function kubectl(bed: Pick<BedInfo, 'binDir' | 'kubeconfig'>, args: readonly string[], stdin?: string): Promise<string> {
  const { code, stdout, stderr } = await runCommand(join(bed.binDir, 'kubectl'), ['--kubeconfig', bed.kubeconfig, ...args], stdin);
  if (code !== 0) throw new KubectlError(args, code, stderr);
  return stdout;
}
