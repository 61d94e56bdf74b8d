// Runs the bed's kubectl as admin: arguments in, stdout out; a non-zero exit is an error carrying stderr.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import type { BedInfo } from '../bed/index.js';

export class KubectlError extends Error {
  override readonly name = 'KubectlError';
  constructor(args: readonly string[], code: number | null, stderr: string) {
    super(`kubectl ${args.join(' ')} exited with ${String(code)}: ${stderr.trim()}`);
  }
}

export async function kubectl(bed: Pick<BedInfo, 'binDir' | 'kubeconfig'>, args: readonly string[], stdin?: string): Promise<string> {
  const child = spawn(join(bed.binDir, 'kubectl'), ['--kubeconfig', bed.kubeconfig, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(stdin ?? '');
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new KubectlError(args, code, stderr);
  return stdout;
}
