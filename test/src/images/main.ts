// `npm run images [-- --push]`: builds the eight images of ours and the bed's two ZooKeeper images (scripts/images.sh
// installs the tools first); with --push, pushes the six to $REGISTRY (host[:port]/prefix). The ZooKeeper images stay
// here: they are stand-ins the images tests run, not images of ours for users. Settings come from the environment,
// parsed here once.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { repoRoot } from '../bed/paths.js';
import { bedCacheDir } from '../cache-dir.js';
import { buildImages } from './build-images.js';
import { ImageStore } from './image-store.js';
import { pushImages } from './registry-copy.js';
import { buildZookeeperImages } from './zookeeper-images.js';

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
const options = { repo: repoRoot(), store: new ImageStore(bedCacheDir(process.env)), extraCaFile: env.NODE_EXTRA_CA_CERTS, progress };
const images = await buildImages(options);
const zookeeperImages = await buildZookeeperImages(options);
if (values.push && env.REGISTRY !== undefined) await pushImages(images, env.REGISTRY, progress);
for (const image of [...images, ...zookeeperImages]) console.log(`${image.reference}\t${image.layout}`);
