// `npm run release`: makes a release of the working tree into dist/release/<version>/ (scripts/release.sh installs
// the tools first). REGISTRY=<host[:port]/prefix> pushes its images and chart there. Settings come from the
// environment, parsed here once.
import { join } from 'node:path';
import { z } from 'zod';
import { resolveBinaries } from '../bed/binaries.js';
import { repoRoot } from '../bed/paths.js';
import { builtBy } from '../controllers/go-built.js';
import { buildImages } from '../images/build-images.js';
import { ImageStore } from '../images/image-store.js';
import { bedCacheDir } from '../cache-dir.js';
import { makeRelease } from './release.js';
import { releaseVersion } from './version.js';

const envSchema = z.object({
  REGISTRY: z.string().min(1).optional(),
  NODE_EXTRA_CA_CERTS: z.string().min(1).optional(),
});

function progress(line: string): void {
  process.stderr.write(`[release] ${line}\n`);
}

const env = envSchema.parse(process.env);
const repo = repoRoot();
const imageOptions = { repo, store: new ImageStore(bedCacheDir(process.env)), extraCaFile: env.NODE_EXTRA_CA_CERTS, progress };
const release = await makeRelease({
  repo,
  outDir: join(repo, 'dist', 'release', releaseVersion(repo)),
  registry: env.REGISTRY,
  buildImages: () => buildImages(imageOptions),
  helm: builtBy('helm'),
  kubectl: (await resolveBinaries(process.env)).kubectl,
  progress,
});
for (const image of release.images) console.log(`${image.reference}@${image.digest}`);
console.log(release.chart.file);
console.log(release.manifest);
console.log(release.crds);
console.log(release.notes);
