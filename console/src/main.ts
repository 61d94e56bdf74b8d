// The console's process: settings from the environment, the clusters of the kubeconfig, the HTTP server. Wiring only.
import { once } from 'node:events';
import { abortOnSignals, createLogger, eventBusFrom, loadKubeConfig, runMain } from '@zk-oam/runtime';
import { ClusterDirectory } from './clusters.js';
import { loadStaticFiles } from './http/static-files.js';
import { createConsoleServer } from './server.js';
import { consoleEnvSchema } from './settings.js';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const env = consoleEnvSchema.parse(process.env);
  const log = createLogger({ name: 'console', level: env.LOG_LEVEL });
  const directory = new ClusterDirectory(loadKubeConfig(env), env.CONSOLE_CONTEXTS);
  const facts = eventBusFrom(env, { name: 'zk-oam-console', log });
  if (facts === undefined) log.info('no NATS_URL: the streams carry the Kubernetes watches alone, no NATS facts');
  const shutdown = abortOnSignals();
  const page = await loadStaticFiles(env.CONSOLE_WEB_DIR);
  const server = createConsoleServer({ directory, log, shutdown, page, facts });
  server.listen(env.CONSOLE_PORT, env.CONSOLE_HOST);
  await once(server, 'listening');
  log.info({ address: server.address(), clusters: directory.list().map((cluster) => cluster.name) }, 'console serving the page at / and the API at /api/v1');
  await once(shutdown, 'abort');
  // No new connection; open streams end themselves on the signal; requests under way may finish for a while.
  log.info('stopping');
  const closed = once(server, 'close');
  server.close();
  server.closeIdleConnections();
  // The grace's deadline, not a wait: closing goes on meanwhile, and the timer does not hold the process.
  setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
  await closed;
  await facts?.close();
  log.info('stopped');
  // Kept-alive connections to the API servers would hold the process for their idle timeout.
  process.exit(0);
}

await runMain('console', main);
