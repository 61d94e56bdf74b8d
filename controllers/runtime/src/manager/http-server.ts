// The probe and metrics endpoint: /healthz (the process serves), /readyz (each controller's caches synced, one line per
// controller that is not ready; /readyz/<controller> for one alone), /metrics.
import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';

/** One controller's readiness: undefined when ready, else what a person reads about why not. */
export interface ReadinessCheck {
  readonly name: string;
  readonly problem: () => string | undefined;
}

/** What /metrics renders: a Registry, or several merged into one exposition. */
export type MetricsSource = Pick<Registry, 'metrics' | 'contentType'>;

export interface HttpServerOptions {
  readonly host: string;
  /** 0 picks a free port; read the chosen one from the result. */
  readonly port: number;
  readonly metrics: MetricsSource;
  readonly readiness: readonly ReadinessCheck[];
  readonly logger: Logger;
}

export interface RunningHttpServer {
  readonly port: number;
  close(): Promise<void>;
}

/** 200 when every check passes; else 503 with one `<name>: <problem>` line per failing check, so none hides another. */
export function readinessReply(checks: readonly ReadinessCheck[]): { status: number; body: string } {
  const problems = checks.flatMap((check) => {
    const problem = check.problem();
    return problem === undefined ? [] : [`${check.name}: ${problem}`];
  });
  return problems.length === 0 ? { status: 200, body: 'ok\n' } : { status: 503, body: `${problems.join('\n')}\n` };
}

function readinessOf(checks: readonly ReadinessCheck[], path: string): { status: number; body: string } {
  if (path === '/readyz') return readinessReply(checks);
  const named = checks.filter((check) => path === `/readyz/${check.name}`);
  return named.length === 0 ? { status: 404, body: 'no such controller\n' } : readinessReply(named);
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const reply = (status: number, body: string, contentType = 'text/plain; charset=utf-8'): void => {
      response.writeHead(status, { 'Content-Type': contentType }).end(body);
    };
    if (path === '/healthz') {
      reply(200, 'ok\n');
    } else if (path === '/readyz' || path.startsWith('/readyz/')) {
      const { status, body } = readinessOf(options.readiness, path);
      reply(status, body);
    } else if (path === '/metrics') {
      options.metrics.metrics().then(
        (text) => reply(200, text, options.metrics.contentType),
        (error: unknown) => {
          options.logger.error({ err: error }, 'could not render metrics');
          reply(500, 'metrics failed\n');
        },
      );
    } else {
      reply(404, 'not found\n');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  options.logger.info({ host: options.host, port }, 'serving /healthz /readyz /metrics');
  return {
    port,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}
