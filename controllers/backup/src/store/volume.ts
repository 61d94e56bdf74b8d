// The client of a volume server (volume/server.ts): a PersistentVolumeClaim target as an object store, reached at its
// Job's pod, authenticated by the run's token. Errors are ObjectStoreErrors, as S3's are.
import { VOLUME_PATHS } from '../volume/protocol.js';
import { ObjectStoreError, type ObjectStore } from './object-store.js';

export interface VolumeStoreOptions {
  /** http://<pod IP>:<port> */
  readonly url: string;
  readonly token: string;
  /** pvc://<claim>/ */
  readonly location: string;
  readonly requestTimeoutMs: number;
}

export function volumeStore(options: VolumeStoreOptions): ObjectStore {
  const call = async (operation: string, key: string, path: string, init: RequestInit = {}): Promise<Response> => {
    try {
      const response = await fetch(`${options.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${options.token}`, ...init.headers },
        signal: AbortSignal.timeout(options.requestTimeoutMs),
      });
      if (response.ok || response.status === 404) return response;
      throw new Error(`HTTP ${String(response.status)}: ${await response.text()}`);
    } catch (error) {
      throw new ObjectStoreError(operation, key, { cause: error });
    }
  };
  const objectPath = (key: string): string => `${VOLUME_PATHS.objects}/${encodeURIComponent(key)}`;
  return {
    location: (key) => `${options.location}${key}`,
    put: async (key, body, contentType) => {
      // A copy on an ArrayBuffer of its own: fetch's types take no view of a Buffer's pooled (possibly shared) memory.
      await call('put', key, objectPath(key), { method: 'PUT', body: new Uint8Array(body), headers: { 'content-type': contentType } });
    },
    get: async (key) => {
      const response = await call('get', key, objectPath(key));
      return response.status === 404 ? undefined : Buffer.from(await response.arrayBuffer());
    },
    list: async (prefix) => {
      const response = await call('list', prefix, `${VOLUME_PATHS.objects}?prefix=${encodeURIComponent(prefix)}`);
      const keys: unknown = await response.json();
      if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string')) throw new ObjectStoreError('list', prefix, { cause: new Error('the volume server answered no list of keys') });
      return keys;
    },
    delete: async (keys) => {
      if (keys.length === 0) return;
      await call('delete', keys[0] ?? '', VOLUME_PATHS.delete, { method: 'POST', body: JSON.stringify({ keys }), headers: { 'content-type': 'application/json' } });
    },
    close: () => undefined,
  };
}
