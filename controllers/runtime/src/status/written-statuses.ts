// The statuses this process wrote, each with the resourceVersion the apiserver stored it at, until the informer's cache
// has caught up with them. The cache can hand a reconcile its object before the last reconcile's own status write
// arrived: another update of the object written earlier (a finalizer added in the same reconcile) comes first, and
// the key is reconciled again at once. A status derived from that copy repeats the write, and a step that reads it
// ("has the path been announced?") says again what was already said. The newer of the two is read instead.
import { z } from 'zod';
import { formatKey, keyOf, type KubeObject, type ObjectKey } from '../kube/object.js';
import { storedStatus } from './stored-status.js';

const storedObjectSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string(), namespace: z.string().optional(), uid: z.string(), resourceVersion: z.string() }),
});

/**
 * A resourceVersion as a number, which the apiserver's are (Kubernetes documents them as comparable since 1.35); none
 * when it is not one, and then the cache is trusted.
 */
export function comparableVersion(resourceVersion: string | undefined): bigint | undefined {
  return resourceVersion !== undefined && /^[1-9][0-9]*$/.test(resourceVersion) ? BigInt(resourceVersion) : undefined;
}

interface Written<T> {
  readonly uid: string;
  readonly resourceVersion: bigint;
  readonly status: T | undefined;
}

export class WrittenStatuses<S extends z.ZodType> {
  private readonly byKey = new Map<string, Written<z.output<S>>>();

  constructor(private readonly schema: S) {}

  /** The object's status: the one this process last wrote, while the cached object is older than that write. */
  freshest(object: KubeObject): z.output<S> | undefined {
    const cached = storedStatus(this.schema, object);
    const key = formatKey(keyOf(object));
    const written = this.byKey.get(key);
    if (written === undefined) return cached;
    const cachedVersion = comparableVersion(object.metadata.resourceVersion);
    if (written.uid === object.metadata.uid && cachedVersion !== undefined && cachedVersion < written.resourceVersion) return written.status;
    this.byKey.delete(key);
    return cached;
  }

  /** Keeps the status of the object as a status write returned it; a reply that does not say its version is let go. */
  remember(stored: unknown): void {
    const parsed = storedObjectSchema.safeParse(stored);
    if (!parsed.success) return;
    const { metadata } = parsed.data;
    const resourceVersion = comparableVersion(metadata.resourceVersion);
    if (resourceVersion === undefined) return;
    const key = formatKey({ namespace: metadata.namespace ?? '', name: metadata.name });
    this.byKey.set(key, { uid: metadata.uid, resourceVersion, status: storedStatus(this.schema, parsed.data) });
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
