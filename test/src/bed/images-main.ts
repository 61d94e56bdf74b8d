// Builds the images a bed runs (bed-images.ts) into the cache, for bootstrap.sh to run beside the control plane's
// compile: the bases are mostly downloads and package unpacking, which overlap with the compiler, and the bed then
// finds every image cached. One readable line per step on stderr.
import { pino } from 'pino';
import { z } from 'zod';
import { bedImages } from './bed-images.js';
import { imageOptions } from './bed.js';

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
const images = await bedImages(imageOptions(log), log);
log.info(`${String(images.local.length)} images ready for the bed in ${String(Math.round((performance.now() - started) / 1000))} s`);
