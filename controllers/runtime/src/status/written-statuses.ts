// The statuses this process wrote, each with the resourceVersion the apiserver stored it at, until the informer's cache
// has caught up with them. The cache can hand a reconcile its object before the last reconcile's own status write
// arrived: another update of the object written earlier (a finalizer added in the same reconcile) comes first, and
// the key is reconciled again at once. A status derived from that copy repeats the write, and a step that reads it
// ("has the path been announced?") says again what was already said. The newer of the two is read instead.
import type { z } from 'zod';
import { isRecord } from '../kube/json-record.js';
import { formatKey, keyOf, type KubeObject, type ObjectKey } from '../kube/object.js';
import { storedStatus } from './stored-status.js';

/**
 * A resourceVersion as a number, which the apiserver's are (Kubernetes documents them as comparable since 1.35); none
 * when it is not one, and then the cache is trusted.
 */
export function comparableVersion(resourceVersion: string | undefined): bigint | undefined {
  return resourceVersion !== undefined && /^[1-9][0-9]*$/.test(resourceVersion) ? BigInt(resourceVersion) : undefined;
}

interface Written {
  readonly uid: string;
  readonly resourceVersion: bigint;
  /** The object as the write returned it: its status is read through the schema only if a reconcile needs it. */
  readonly object: KubeObject;
}

export class WrittenStatuses<S extends z.ZodType> {
  private readonly byKey = new Map<string, Written>();

  constructor(private readonly schema: S) {}

  /** The object's status: the one this process last wrote, while the cached object is older than that write. */
  freshest(object: KubeObject): z.output<S> | undefined {
    const cached = storedStatus(this.schema, object);
    const key = formatKey(keyOf(object));
    const written = this.byKey.get(key);
    if (written === undefined) return cached;
    const cachedVersion = comparableVersion(object.metadata.resourceVersion);
    if (written.uid === object.metadata.uid && cachedVersion !== undefined && cachedVersion < written.resourceVersion) return storedStatus(this.schema, written.object);
    this.byKey.delete(key);
    return cached;
  }

  /** Keeps the status of the object as a status write returned it; a reply that does not say its version is let go. */
  remember(stored: unknown): void {
    const metadata = isRecord(stored) ? stored['metadata'] : undefined;
    if (!isRecord(stored) || !isRecord(metadata)) return;
    const { name, namespace, uid, resourceVersion } = metadata;
    const version = typeof resourceVersion === 'string' ? comparableVersion(resourceVersion) : undefined;
    if (typeof name !== 'string' || typeof uid !== 'string' || version === undefined) return;
    const object: KubeObject = { ...stored, metadata: { name, uid, ...(typeof namespace === 'string' ? { namespace } : {}) } };
    this.byKey.set(formatKey(keyOf(object)), { uid, resourceVersion: version, object });
  }

  /** Lets go of an object that is gone. */
  forget(key: ObjectKey): void {
    this.byKey.delete(formatKey(key));
  }

  /** How many writes the cache has not caught up with yet. */
  get size(): number {
    return this.byKey.size;
  }
}
