// The probe and metrics endpoint: /healthz (the process serves), /readyz (caches synced), /metrics.
import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';

export interface HttpServerOptions {
  readonly host: string;
  /** 0 picks a free port; read the chosen one from the result. */
  readonly port: number;
  readonly registry: Registry;
  readonly isReady: () => boolean;
  readonly logger: Logger;
}

export interface RunningHttpServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const reply = (status: number, body: string, contentType = 'text/plain; charset=utf-8'): void => {
      response.writeHead(status, { 'Content-Type': contentType }).end(body);
    };
    switch (path) {
      case '/healthz':
        reply(200, 'ok\n');
        return;
      case '/readyz':
        if (options.isReady()) reply(200, 'ok\n');
        else reply(503, 'informer caches not synced yet\n');
        return;
      case '/metrics':
        options.registry.metrics().then(
          (text) => reply(200, text, options.registry.contentType),
          (error: unknown) => {
            options.logger.error({ err: error }, 'could not render metrics');
            reply(500, 'metrics failed\n');
          },
        );
        return;
      default:
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
