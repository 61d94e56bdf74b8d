// Reads an image's configuration (entrypoint, command, user, environment, working directory) and its manifest's digest
// from an OCI layout, as a runtime would see them.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

const descriptorSchema = z.object({
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  annotations: z.record(z.string(), z.string()).optional(),
});
const indexSchema = z.object({ manifests: z.array(descriptorSchema) });
const manifestSchema = z.object({ config: descriptorSchema, layers: z.array(descriptorSchema.extend({ size: z.number() })) });
const configSchema = z.object({
  config: z.object({
    User: z.string().optional(),
    Entrypoint: z.array(z.string()).nullish(),
    Cmd: z.array(z.string()).nullish(),
    Env: z.array(z.string()).nullish(),
    WorkingDir: z.string().optional(),
  }),
});

export interface ImageConfig {
  /** The manifest's digest (sha256:...): what a registry serves the image as, and a pod's imageID names. */
  readonly digest: string;
  readonly user: string | undefined;
  readonly entrypoint: readonly string[];
  readonly cmd: readonly string[];
  readonly workingDir: string | undefined;
  readonly env: Readonly<Record<string, string>>;
  /** The layers' compressed size in bytes: what a pull transfers. */
  readonly compressedBytes: number;
}

async function blob(layout: string, digest: string): Promise<unknown> {
  return JSON.parse(await readFile(join(layout, 'blobs', 'sha256', digest.slice('sha256:'.length)), 'utf8')) as unknown;
}

/** The configuration of the image tagged `tag` in the layout. */
export async function imageConfig(layout: string, tag: string): Promise<ImageConfig> {
  const index = indexSchema.parse(JSON.parse(await readFile(join(layout, 'index.json'), 'utf8')));
  const entry = index.manifests.find((manifest) => manifest.annotations?.['org.opencontainers.image.ref.name'] === tag);
  if (entry === undefined) throw new Error(`${layout} has no image tagged ${tag}`);
  const manifest = manifestSchema.parse(await blob(layout, entry.digest));
  const { config } = configSchema.parse(await blob(layout, manifest.config.digest));
  const env = Object.fromEntries((config.Env ?? []).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
  return {
    digest: entry.digest,
    user: config.User,
    entrypoint: config.Entrypoint ?? [],
    cmd: config.Cmd ?? [],
    workingDir: config.WorkingDir || undefined,
    env,
    compressedBytes: manifest.layers.reduce((sum, layer) => sum + layer.size, 0),
  };
}
