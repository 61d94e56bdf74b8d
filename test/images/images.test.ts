// The images built from the one Dockerfile (npm run images), and one of them started as a container runtime starts it:
// as the image's user, on a read-only root, and, given no configuration, ending with one structured line saying why.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { IMAGE_NAMES } from '../src/bed/controller-images.js';
import { repoRoot } from '../src/bed/paths.js';
import { buildImages, type BuiltImage } from '../src/images/build-images.js';
import type { CommandResult } from '../src/controllers/command.js';
import { ImageStore } from '../src/images/image-store.js';
import { imageConfig } from '../src/images/oci-layout.js';
import { unpackImage, type UnpackedImage } from '../src/images/runc-bundle.js';
import { bedCacheDir } from '../src/cache-dir.js';

const store = new ImageStore(bedCacheDir(process.env));
const failureLineSchema = z.object({ level: z.number(), name: z.string(), msg: z.string(), err: z.object({ stack: z.string() }) });
let images: BuiltImage[] = [];

beforeAll(async () => {
  const started = Date.now();
  images = await buildImages({
    repo: repoRoot(),
    store,
    extraCaFile: process.env['NODE_EXTRA_CA_CERTS'] || undefined,
    progress: (line) => console.log(`[images] ${line}`),
  });
  const built = images.filter((image) => image.built).length;
  console.log(`[images] ${built === 0 ? 'warm, all cached' : `${String(built)} built`}: ${String(Math.round((Date.now() - started) / 1000))} s`);
  // -x: not into the overlay mounts of containers under way, which would count their layers again.
  const storage = execFileSync('du', ['-shx', store.storage], { encoding: 'utf8' }).split('\t')[0];
  console.log(`[images] buildah storage: ${storage ?? '?'}`);
});

describe('the images of npm run images', () => {
  it.each(IMAGE_NAMES)("%s: runs the bundle as uid 65532, stack traces in the TypeScript sources", async (name) => {
    const image = images.find((candidate) => candidate.name === name);
    expect(image).toBeDefined();
    const config = await imageConfig(image?.layout ?? '', name);
    console.log(`[images] ${name}: ${(config.compressedBytes / 2 ** 20).toFixed(1)} MiB compressed`);
    expect(config.user).toBe('65532:65532');
    expect(config.entrypoint).toEqual(['node', '--max-opt=2', '/app/main.mjs']);
    expect(config.env['NODE_OPTIONS']).toContain('--enable-source-maps');
  });
});

describe('a controller image started by runc', () => {
  let workload: UnpackedImage | undefined;
  beforeAll(async () => {
    workload = await unpackImage(store, images.find((image) => image.name === 'workload')?.layout ?? '', 'workload');
  });
  afterAll(() => workload?.remove());
  const run = async (args?: readonly string[]): Promise<CommandResult> => {
    if (workload === undefined) throw new Error('the workload image was not unpacked');
    return workload.run({ args });
  };

  it("runs as the image's user, on a root filesystem it cannot write", async () => {
    const probe = "const fs = require('node:fs'); let write = 'written'; try { fs.writeFileSync('/probe', 'x'); } catch (e) { write = e.code; } console.log(JSON.stringify({ uid: process.getuid(), gid: process.getgid(), write }));";
    const result = await run(['node', '-e', probe]);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ uid: 65532, gid: 65532, write: 'EROFS' });
  });

  it('without configuration, exits non-zero with one JSON line saying why, pointing at the TypeScript sources', async () => {
    const result = await run();
    expect(result.code).not.toBe(0);
    // Node's report of an uncaught error would print the bundle's minified source line to stderr.
    expect(result.stderr).toBe('');
    const lines = result.stdout.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    const line = failureLineSchema.parse(JSON.parse(lines[0] ?? ''));
    expect(line).toMatchObject({ level: 60, name: 'zk-oam-workload' });
    expect(line.msg).toContain('no KUBECONFIG and not in a pod');
    expect(line.err.stack).toMatch(/runtime\/src\/manager\/process\.ts:\d+:\d+/);
  });
});
