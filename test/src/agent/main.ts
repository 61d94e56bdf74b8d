// Entry point of the bed node agent: `main.ts --kubeconfig <file> --dir <dir> --nodes a,b,c --registry-mirror <host:port>
// --jvm-archives <file> --network <file>`; runs until SIGTERM/SIGINT.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { z } from 'zod';
import { startAgent } from './agent.js';
import { jvmArchivesSchema } from './node-images.js';
import { ImageStore } from '../images/image-store.js';
import { bedCacheDir } from '../cache-dir.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const argsSchema = z.object({
  kubeconfig: z.string().min(1),
  dir: z.string().min(1),
  nodes: z
    .string()
    .min(1)
    .transform((value) => value.split(',').map((name) => name.trim()).filter((name) => name !== '')),
  /** host:port of the registry the nodes pull every image through. */
  'registry-mirror': z.string().regex(/^[\w.-]+:\d+$/, 'host:port'),
  /** JSON: the class-data sharing archives the bed made, by image manifest digest. */
  'jvm-archives': z.string().min(1),
  /** JSON: the nodes' network (AgentNetwork). */
  network: z.string().min(1),
});

const ipv4 = z.ipv4();
const networkSchema = z.object({
  nodeNamespace: z.string().regex(/^[\w-]+$/),
  nodeAddress: ipv4,
  podCidr: z.cidrv4(),
  cniBinDir: z.string().min(1),
  apiServiceIp: ipv4,
  dnsServiceIp: ipv4,
});

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      kubeconfig: { type: 'string' },
      dir: { type: 'string' },
      nodes: { type: 'string' },
      'registry-mirror': { type: 'string' },
      'jvm-archives': { type: 'string' },
      network: { type: 'string' },
    },
  });
  const args = argsSchema.parse(values);
  const log = pino({ name: 'bed-node-agent', level: process.env['LOG_LEVEL'] ?? 'info' });
  const kubeConfig = new PooledKubeConfig();
  kubeConfig.loadFromFile(args.kubeconfig);
  const agent = await startAgent({
    kubeConfig,
    dir: resolve(args.dir),
    nodeNames: args.nodes,
    images: {
      mirror: args['registry-mirror'],
      jvmArchives: jvmArchivesSchema.parse(JSON.parse(readFileSync(args['jvm-archives'], 'utf8'))),
    },
    store: new ImageStore(bedCacheDir(process.env)),
    network: networkSchema.parse(JSON.parse(readFileSync(args.network, 'utf8'))),
    log,
  });
  const shutdown = (signal: string): void => {
    log.info({ signal }, 'signal received');
    agent.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'stopping the agent failed');
        process.exit(1);
      },
    );
  };
  // Last resort for "one bad pod never crashes the agent": every known path catches, this logs what slipped through.
  process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled rejection'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('bed node agent failed to start:', error);
  process.exit(1);
});
