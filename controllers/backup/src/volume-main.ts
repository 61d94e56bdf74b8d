// The volume server's own process, what the backup controller's Job runs from the backup image (node
// /app/volume-main.mjs): its settings from the environment, then it serves the mounted claim until the controller
// deletes the Job (SIGTERM: exit 0).
import { abortOnSignals, createLogger, runMain } from '@zk-oam/runtime';
import { z } from 'zod';
import { DirectoryStore } from './store/directory.js';
import { VOLUME_SERVER_PORT } from './volume/protocol.js';
import { volumeServer } from './volume/server.js';

const NAME = 'zk-oam-backup-volume';

const settingsSchema = z.object({
  /** Where the claim is mounted. */
  VOLUME_DIR: z.string().min(1),
  /** What people read as the directory's location: pvc://<claim>/. */
  VOLUME_LOCATION: z.string().min(1),
  /** SHA-256 (hex) of the token the controller calls with. */
  VOLUME_TOKEN_SHA256: z.string().regex(/^[0-9a-f]{64}$/),
  PORT: z.coerce.number().int().min(1).max(65535).default(VOLUME_SERVER_PORT),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

async function serveVolume(): Promise<void> {
  const settings = settingsSchema.parse(process.env);
  const log = createLogger({ name: NAME, level: settings.LOG_LEVEL });
  const server = volumeServer(new DirectoryStore(settings.VOLUME_DIR, settings.VOLUME_LOCATION), settings.VOLUME_TOKEN_SHA256, log);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.PORT, '0.0.0.0', resolve);
  });
  log.info({ port: settings.PORT, dir: settings.VOLUME_DIR }, 'serving the volume');
  const stopped = abortOnSignals();
  await new Promise<void>((resolve) => stopped.addEventListener('abort', () => resolve(), { once: true }));
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  log.info('stopped');
}

await runMain(NAME, serveVolume);
