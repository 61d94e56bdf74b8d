// What a test/<tool>/build.sh script built from a pinned Go module: it builds once into the cache (progress on
// stderr, let through) and prints the path on its last stdout line; cached, it answers at once.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './manifests.js';

export function builtBy(tool: string): string {
  const script = join('test', tool, 'build.sh');
  const path = execFileSync('bash', [join(repoRoot, script)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
    .trim()
    .split('\n')
    .at(-1);
  if (path === undefined || path === '') throw new Error(`${script} printed no path`);
  return path;
}
