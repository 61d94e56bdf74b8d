// The push of `npm run images`, shown against the bed's registry: `REGISTRY=<registry>/zk-oam npm run images -- --push`
// into an empty registry; each manifest read back over the registry's HTTP API is the local image's (same digest), and
// an image pulled back into a fresh OCI layout is the same image, with its user and entrypoint.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { IMAGE_NAMES, type ImageName } from '../src/bed/controller-images.js';
import { repoRoot } from '../src/bed/paths.js';
import { startRegistry, type Registry } from '../src/bed/registry.js';
import { runCommand } from '../src/controllers/command.js';
import { imageNodeArgs } from '../src/controllers/manifests.js';
import { NO_TIME_LIMIT } from '../src/images/command.js';
import { imageConfig } from '../src/images/oci-layout.js';
import { pullImage } from '../src/images/registry-copy.js';

const prefix = 'zk-oam';
/** What a registry may serve the manifest of an image of ours as; buildah writes OCI manifests. */
const manifestTypes = ['application/vnd.oci.image.manifest.v1+json', 'application/vnd.docker.distribution.manifest.v2+json'];
const catalogSchema = z.object({ repositories: z.array(z.string()).nullable() });

interface LocalImage {
  /** What deploy/ names, e.g. ghcr.io/zk-oam/workload:0.1.0. */
  readonly reference: string;
  readonly layout: string;
}

let dir = '';
let registry: Registry | undefined;
/** Each image's local reference and OCI layout, as `npm run images` printed them. */
const local = new Map<string, LocalImage>();

function registryHost(): string {
  if (registry === undefined) throw new Error('the registry did not start');
  return registry.host;
}

async function repositories(): Promise<string[]> {
  const response = await fetch(`http://${registryHost()}/v2/_catalog`);
  return catalogSchema.parse(await response.json()).repositories ?? [];
}

function localImage(name: ImageName): LocalImage {
  const image = local.get(name);
  if (image === undefined) throw new Error(`npm run images printed no ${name} image`);
  return image;
}

/** Where `npm run images -- --push` put the image: <registry>/zk-oam/<name>:<the tag deploy/ names>. */
function pushedTo(name: ImageName): { repository: string; tag: string } {
  const tag = localImage(name).reference.split(':').at(-1) ?? '';
  return { repository: `${prefix}/${name}`, tag };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'zkoam-registry-'));
  registry = await startRegistry({ bedDir: dir, log: pino({ name: 'bed' }), timeoutMs: 30_000 });
  // An empty registry, so that what the test reads back can only have come from this push.
  expect(await repositories()).toEqual([]);
  const started = Date.now();
  const pushed = await runCommand('bash', [join(repoRoot(), 'scripts', 'images.sh'), '--push'], '', NO_TIME_LIMIT, { env: { REGISTRY: `${registryHost()}/${prefix}` } });
  console.log(pushed.stderr.trim());
  if (pushed.code !== 0) throw new Error(`npm run images -- --push exited with ${String(pushed.code)}`);
  console.log(`[images] npm run images -- --push: ${String(Math.round((Date.now() - started) / 1000))} s`);
  // One line per image, `<reference>\t<layout>`; npm may print lines of its own before them.
  for (const line of pushed.stdout.split('\n').filter((candidate) => candidate.includes('\t'))) {
    const [reference = '', layout = ''] = line.split('\t');
    local.set(reference.slice(reference.lastIndexOf('/') + 1, reference.lastIndexOf(':')), { reference, layout });
  }
});

afterAll(async () => {
  await registry?.stop();
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

describe('REGISTRY=<registry> npm run images -- --push', () => {
  it('pushes our eight images, and nothing else, under the prefix', async () => {
    expect((await repositories()).sort()).toEqual(IMAGE_NAMES.map((name) => `${prefix}/${name}`).sort());
  });

  it.each(IMAGE_NAMES)('%s: the registry serves the local image’s manifest, by its digest', async (name) => {
    const { digest } = await imageConfig(localImage(name).layout, name);
    const { repository, tag } = pushedTo(name);
    const response = await fetch(`http://${registryHost()}/v2/${repository}/manifests/${tag}`, { headers: { accept: manifestTypes.join(', ') } });
    expect(response.status).toBe(200);
    const body = Buffer.from(await response.arrayBuffer());
    expect(`sha256:${createHash('sha256').update(body).digest('hex')}`).toBe(digest);
    expect(response.headers.get('docker-content-digest')).toBe(digest);
  });

  it('an image pulled back by reference into a fresh OCI layout is the same image: digest, user 65532, entrypoint', async () => {
    const { repository, tag } = pushedTo('workload');
    const pulled = join(dir, 'pulled');
    await pullImage(`${registryHost()}/${repository}:${tag}`, pulled, 'workload');
    const config = await imageConfig(pulled, 'workload');
    expect(config).toEqual(await imageConfig(localImage('workload').layout, 'workload'));
    expect(config.user).toBe('65532:65532');
    expect(config.entrypoint).toEqual(['node', ...(await imageNodeArgs()), '/app/main.mjs']);
  });
});
