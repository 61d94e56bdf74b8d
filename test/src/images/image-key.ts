// The key an image is cached under: a digest of everything that goes into it (the Dockerfile, the files its COPY lines
// take from the repository, the base images, which deployable), so a change to any of these makes a new image and
// nothing else does.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { commandOutput } from './command.js';

/** The repository paths the Dockerfile's COPY lines take (not those copied from a build stage). */
export function copiedSources(dockerfile: string): string[] {
  const sources: string[] = [];
  for (const line of dockerfile.split('\n')) {
    const words = line.trim().split(/\s+/);
    if (words[0] !== 'COPY' || words.some((word) => word.startsWith('--from='))) continue;
    sources.push(...words.slice(1, -1).filter((word) => !word.startsWith('--')));
  }
  return [...new Set(sources)];
}

/**
 * The digest of the build context an image sees: the Dockerfile, .dockerignore and each file its COPY lines take, as
 * git lists them (tracked, or new and not ignored; what .gitignore leaves out, .dockerignore does too).
 */
export async function contextDigest(repo: string): Promise<string> {
  const dockerfile = await readFile(join(repo, 'Dockerfile'), 'utf8');
  const listed = await commandOutput('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...copiedSources(dockerfile)], { cwd: repo });
  const files = [...new Set(['Dockerfile', '.dockerignore', ...listed.split('\0').filter((path) => path !== '')])].sort();
  const hash = createHash('sha256');
  for (const path of files) {
    // A file git lists but the worktree lacks (deleted, not yet staged) is not in the context either.
    const content = await readFile(join(repo, path)).catch(() => undefined);
    if (content !== undefined) hash.update(`${path}\0${String(content.length)}\0`).update(content);
  }
  return hash.digest('hex');
}

export interface ImageInputs {
  readonly context: string;
  readonly name: string;
  readonly buildBase: string;
  readonly runBase: string;
}

/** 16 hex digits of the digest of an image's inputs. */
export function imageKey(inputs: ImageInputs): string {
  return createHash('sha256')
    .update(JSON.stringify([inputs.context, inputs.name, inputs.buildBase, inputs.runBase]))
    .digest('hex')
    .slice(0, 16);
}
