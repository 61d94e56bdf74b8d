// The console's process: settings from the environment, the clusters of the kubeconfig, the HTTP server. Wiring only.
import { once } from 'node:events';
import { abortOnSignals, createLogger, loadKubeConfig } from '@zk-oam/runtime';
import { ClusterDirectory } from './clusters.js';
import { createConsoleServer } from './server.js';
import { consoleEnvSchema } from './settings.js';

async function main(): Promise<void> {
  const env = consoleEnvSchema.parse(process.env);
  const log = createLogger({ name: 'console', level: env.LOG_LEVEL });
  const directory = new ClusterDirectory(loadKubeConfig(env), env.CONSOLE_CONTEXTS);
  const server = createConsoleServer({ directory, log });
  server.listen(env.CONSOLE_PORT, env.CONSOLE_HOST);
  await once(server, 'listening');
  log.info({ address: server.address(), clusters: directory.list().map((cluster) => cluster.name) }, 'console serving /api/v1');
  await once(abortOnSignals(), 'abort');
  log.info('stopping');
  server.closeAllConnections();
  server.close();
}

await main();
