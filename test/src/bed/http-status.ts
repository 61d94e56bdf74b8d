// The status code of one GET, for the bed's readiness checks of its children (etcd, kube-apiserver, the controllers).
import { request } from 'node:https';

export interface TlsClientOptions {
  ca?: string;
  cert?: string;
  key?: string;
  /** For components serving with self-signed certificates (controller manager, scheduler health). */
  insecure?: boolean;
}

/** GETs an https URL and resolves its status code. */
export function httpsStatus(url: string, tls: TlsClientOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'GET', ca: tls.ca, cert: tls.cert, key: tls.key, rejectUnauthorized: !tls.insecure, timeout: 5_000 },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.once('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.once('error', reject);
    req.end();
  });
}

/** GETs a plain http URL (etcd's client port) and resolves its status code. */
export async function httpStatus(url: string): Promise<number> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  await res.body?.cancel();
  return res.status;
}
