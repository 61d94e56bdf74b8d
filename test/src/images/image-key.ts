// The key an image is cached under: a digest of everything that goes into it (the Containerfile, the files its COPY
// lines take from the build context, the base images and build arguments, which image), so a change to any of these
// makes a new image and nothing else does.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { commandOutput } from './command.js';

/** The context's paths a Containerfile's COPY lines take (not those copied from a build stage). */
export function copiedSources(containerfile: string): string[] {
  const sources: string[] = [];
  for (const line of containerfile.split('\n')) {
    const words = line.trim().split(/\s+/);
    if (words[0] !== 'COPY' || words.some((word) => word.startsWith('--from='))) continue;
    sources.push(...words.slice(1, -1).filter((word) => !word.startsWith('--')));
  }
  return [...new Set(sources)];
}

/**
 * The digest of the build context an image sees: the Containerfile, .dockerignore and each file its COPY lines take, as
 * git lists them (tracked, or new and not ignored; what .gitignore leaves out, .dockerignore does too).
 */
export async function contextDigest(context: string, containerfile = 'Dockerfile'): Promise<string> {
  const text = await readFile(join(context, containerfile), 'utf8');
  const listed = await commandOutput('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...copiedSources(text)], { cwd: context });
  const files = [...new Set([containerfile, '.dockerignore', ...listed.split('\0').filter((path) => path !== '')])].sort();
  const hash = createHash('sha256');
  for (const path of files) {
    // A file git lists but the worktree lacks (deleted, not yet staged), or a context without .dockerignore.
    const content = await readFile(join(context, path)).catch(() => undefined);
    if (content !== undefined) hash.update(`${path}\0${String(content.length)}\0`).update(content);
  }
  return hash.digest('hex');
}

export interface ImageInputs {
  readonly context: string;
  readonly name: string;
  /** The base images' references and the build arguments that are not the image's name. */
  readonly inputs: readonly string[];
}

/** 16 hex digits of the digest of an image's inputs. */
export function imageKey(image: ImageInputs): string {
  return createHash('sha256')
    .update(JSON.stringify([image.context, image.name, ...image.inputs]))
    .digest('hex')
    .slice(0, 16);
}
