// Every workspace package declares exactly the packages its code imports, so turbo's task graph and an install of one
// package alone are true to the code.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const root = fileURLToPath(new URL('../..', import.meta.url));

const manifestSchema = z.object({
  name: z.string(),
  workspaces: z.array(z.string()).optional(),
  dependencies: z.record(z.string(), z.string()).optional(),
  devDependencies: z.record(z.string(), z.string()).optional(),
});

/** `import … from 'x'`, `export … from 'x'` and `import 'x'`, from the start of a statement to its end. */
const IMPORT_STATEMENT = /^(?:import|export)\b(?:[^;]*?\bfrom)?\s*'([^']+)';$/gm;
/** A dynamic `import()` of a package (the manager loads each controller so) makes it a dependency all the same. */
const DYNAMIC_IMPORT = /\bimport\('([^']+)'\)/g;

function readManifest(directory: string): z.infer<typeof manifestSchema> {
  return manifestSchema.parse(JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')));
}

function workspaceDirectories(): string[] {
  return (readManifest(root).workspaces ?? []).flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [join(root, pattern)];
    const parent = join(root, pattern.slice(0, -2));
    return readdirSync(parent, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => join(parent, entry.name));
  });
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|mjs)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !relative(directory, file).split('/').includes('node_modules'));
}

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`; Node's built-ins and relative paths are no packages. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function importedPackages(directory: string): string[] {
  const found = new Set<string>();
  for (const file of sourceFiles(directory)) {
    const text = readFileSync(file, 'utf8');
    for (const match of [...text.matchAll(IMPORT_STATEMENT), ...text.matchAll(DYNAMIC_IMPORT)]) {
      const name = packageOf(match[1] ?? '');
      if (name !== undefined) found.add(name);
    }
  }
  return [...found].sort();
}

/** Type packages are used by the compiler, never imported by name. */
function declaredPackages(directory: string): string[] {
  const manifest = readManifest(directory);
  return Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })
    .filter((name) => !name.startsWith('@types/'))
    .sort();
}

describe('workspace package manifests', () => {
  it.each(workspaceDirectories().map((directory) => [relative(root, directory), directory]))(
    '%s declares exactly what it imports',
    (_name, directory) => {
      expect(declaredPackages(directory)).toStrictEqual(importedPackages(directory));
    },
  );
});
