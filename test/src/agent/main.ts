// Entry point of the bed node agent: `main.ts --kubeconfig <file> --dir <dir> --nodes a,b,c [--images <file>]`; runs
// until SIGTERM/SIGINT.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { z } from 'zod';
import { startAgent } from './agent.js';
import { DEBIAN_ZOOKEEPER_CLASSPATH, zookeeperJvmOptions } from '../zookeeper-jvm/index.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const argsSchema = z.object({
  kubeconfig: z.string().min(1),
  dir: z.string().min(1),
  nodes: z
    .string()
    .min(1)
    .transform((value) => value.split(',').map((name) => name.trim()).filter((name) => name !== '')),
  /** JSON: image -> the host command its entrypoint becomes. */
  images: z.string().min(1).optional(),
});

const imageEntrypointsSchema = z.record(z.string().min(1), z.array(z.string().min(1)).min(1));

const debianJavaHome = '/usr/lib/jvm/default-java';

/** The in-cluster API address a kubelet gives every pod (the `kubernetes` Service's); here the apiserver itself. */
function apiServiceEnv(kubeConfig: PooledKubeConfig): Record<string, string> {
  const server = new URL(kubeConfig.getCurrentCluster()?.server ?? 'https://127.0.0.1:443');
  const port = server.port === '' ? '443' : server.port;
  return { KUBERNETES_SERVICE_HOST: server.hostname.replace(/^\[|\]$/g, ''), KUBERNETES_SERVICE_PORT: port, KUBERNETES_SERVICE_PORT_HTTPS: port };
}

function envOverrides(kubeConfig: PooledKubeConfig): Record<string, string> {
  const javaHome = process.env['JAVA_HOME'] ?? (existsSync(debianJavaHome) ? debianJavaHome : undefined);
  return {
    ...apiServiceEnv(kubeConfig),
    PATH: process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin',
    ZOOKEEPER_CLASSPATH: DEBIAN_ZOOKEEPER_CLASSPATH,
    ZOOKEEPER_HOME: '/usr/share/zookeeper',
    ...(javaHome === undefined ? {} : { JAVA_HOME: javaHome }),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { kubeconfig: { type: 'string' }, dir: { type: 'string' }, nodes: { type: 'string' }, images: { type: 'string' } },
  });
  const args = argsSchema.parse(values);
  const log = pino({ name: 'bed-node-agent', level: process.env['LOG_LEVEL'] ?? 'info' });
  const kubeConfig = new PooledKubeConfig();
  kubeConfig.loadFromFile(args.kubeconfig);
  const imageEntrypoints = args.images === undefined ? {} : imageEntrypointsSchema.parse(JSON.parse(readFileSync(args.images, 'utf8')));
  const agent = await startAgent({
    kubeConfig,
    dir: resolve(args.dir),
    nodeNames: args.nodes,
    envOverrides: envOverrides(kubeConfig),
    imageEntrypoints,
    jvmOptions: await zookeeperJvmOptions({ env: process.env, log }),
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
