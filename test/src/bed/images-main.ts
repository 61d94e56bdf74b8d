// Builds the images a bed runs (bed-images.ts) into the cache, for bootstrap.sh to run beside the control plane's
// compile: the bases are mostly downloads and package unpacking, which overlap with the compiler, and the bed then
// finds every image cached. With `--tests`, also the images only the `images` tests build (the release-layout ZooKeeper
// image and its JRE base, and the previous release's images the upgrade test installs): the tests run in the bed's
// network namespace, which reaches no package mirror. One readable line per step on stderr.
import { pino } from 'pino';
import { z } from 'zod';
import { bedImages } from './bed-images.js';
import { DEFAULT_INSTALL, installedImages } from '../controllers/install.js';
import { imageOptions } from './bed.js';
import { buildZookeeperImages } from '../images/zookeeper-images.js';
import { previousReleaseImages } from '../release/previous-release.js';
import { bedCacheDir } from '../cache-dir.js';

const lineSchema = z.object({ msg: z.string() });

const log = pino(
  { name: 'images' },
  {
    write(line: string): void {
      const parsed = lineSchema.safeParse(JSON.parse(line));
      process.stderr.write(`[images] ${parsed.success ? parsed.data.msg : line}\n`);
    },
  },
);

const started = performance.now();
const forTests = process.argv.includes('--tests');
// npm start's bed runs the default install; it builds the separate install's images once it shows the system working.
const options = { ...imageOptions(log), ...(forTests ? {} : { names: installedImages(DEFAULT_INSTALL) }) };
const images = await bedImages(options, log);
if (forTests) {
  await buildZookeeperImages(options);
  await previousReleaseImages(options, bedCacheDir(process.env));
}
log.info(`${String(images.local.length)} images ready for the bed in ${String(Math.round((performance.now() - started) / 1000))} s`);
