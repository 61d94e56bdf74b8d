// Where the repository is, found from this file's location, so the bed works from any working directory.
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

/** The repository root (this file lives in test/src/bed/). */
export function repoRoot(): string {
  return resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
}
