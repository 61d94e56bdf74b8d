// `npm run images [-- --push]`: builds the five images (scripts/images.sh installs the tools first); with --push, pushes
// them to $REGISTRY (host[:port]/prefix). Settings come from the environment, parsed here once.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { repoRoot } from '../bed/paths.js';
import { bedCacheDir } from '../zookeeper-jvm/jvm-options.js';
import { buildImages } from './build-images.js';
import { ImageStore } from './image-store.js';
import { pushImages } from './registry-copy.js';

const envSchema = z.object({
  REGISTRY: z.string().min(1).optional(),
  NODE_EXTRA_CA_CERTS: z.string().min(1).optional(),
});

function progress(line: string): void {
  process.stderr.write(`[images] ${line}\n`);
}

const { values } = parseArgs({ options: { push: { type: 'boolean', default: false } } });
const env = envSchema.parse(process.env);
if (values.push && env.REGISTRY === undefined) {
  progress('--push needs REGISTRY=<host[:port]/prefix>, the registry and path the images go to');
  process.exit(2);
}
const images = await buildImages({ repo: repoRoot(), store: new ImageStore(bedCacheDir(process.env)), extraCaFile: env.NODE_EXTRA_CA_CERTS, progress });
if (values.push && env.REGISTRY !== undefined) await pushImages(images, env.REGISTRY, progress);
for (const image of images) console.log(`${image.reference}\t${image.layout}`);
