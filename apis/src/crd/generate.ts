// `npm run generate`: writes the CRD YAML under deploy/ from the zod schemas.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedFiles } from './manifests.js';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

for (const file of generatedFiles()) {
  const target = join(repositoryRoot, file.path);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, file.content);
  console.log(`wrote ${file.path}`);
}
