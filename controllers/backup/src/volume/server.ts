// The volume server: an object store over HTTP on a directory, the PersistentVolumeClaim the controller's Job mounts
// (render/volume-job.ts), for the controller to write a backup to and apply retention on as it does on S3. It serves
// one caller, the controller that started it, recognised by its token; it holds nothing but the files.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from '@zk-oam/runtime';
import { z } from 'zod';
import type { ObjectStore } from '../store/object-store.js';
import { authorized, VOLUME_PATHS } from './protocol.js';

/** The largest body taken: an object is cut at 8 MiB of JSON before compression, a znode at 1 MiB. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

const deleteBodySchema = z.object({ keys: z.array(z.string()) });

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new Error(`body over ${String(MAX_BODY_BYTES)} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

async function answer(store: ObjectStore, request: IncomingMessage, url: URL, response: ServerResponse): Promise<void> {
  const method = request.method ?? 'GET';
  if (url.pathname === VOLUME_PATHS.objects && method === 'GET') {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(await store.list(url.searchParams.get('prefix') ?? '')));
    return;
  }
  if (url.pathname === VOLUME_PATHS.delete && method === 'POST') {
    await store.delete(deleteBodySchema.parse(JSON.parse((await bodyOf(request)).toString('utf8'))).keys);
    response.writeHead(204).end();
    return;
  }
  if (url.pathname.startsWith(`${VOLUME_PATHS.objects}/`)) {
    const key = decodeURIComponent(url.pathname.slice(VOLUME_PATHS.objects.length + 1));
    if (method === 'PUT') {
      await store.put(key, await bodyOf(request), request.headers['content-type'] ?? 'application/octet-stream');
      response.writeHead(204).end();
      return;
    }
    if (method === 'GET') {
      const body = await store.get(key);
      if (body === undefined) response.writeHead(404).end();
      else response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
      return;
    }
  }
  response.writeHead(404).end();
}

export function volumeServer(store: ObjectStore, tokenSha256: string, log: Logger): Server {
  return createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://volume');
    if (url.pathname === VOLUME_PATHS.health) {
      response.writeHead(200).end('ok');
      return;
    }
    if (!authorized(request.headers.authorization, tokenSha256)) {
      response.writeHead(401).end();
      return;
    }
    answer(store, request, url, response).catch((error: unknown) => {
      log.warn({ err: error, method: request.method, path: url.pathname }, 'request failed');
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(error instanceof Error ? error.message : String(error));
    });
  });
}
