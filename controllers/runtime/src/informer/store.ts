// The informer's local cache (a lister): objects by namespace/name, listed by namespace and labels.
import { formatKey, keyOf, type KubeObject, type ObjectKey } from '../kube/object.js';

export interface ListOptions {
  readonly namespace?: string;
  /** Every pair must be present on the object (a matchLabels selector). */
  readonly labels?: Readonly<Record<string, string>>;
}

export interface Lister<T extends KubeObject> {
  get(key: ObjectKey): T | undefined;
  list(options?: ListOptions): T[];
}

export function matchesLabels(object: KubeObject, labels: Readonly<Record<string, string>>): boolean {
  const own = object.metadata.labels ?? {};
  return Object.entries(labels).every(([name, value]) => own[name] === value);
}

export class Store<T extends KubeObject> implements Lister<T> {
  private objects = new Map<string, T>();

  get(key: ObjectKey): T | undefined {
    return this.objects.get(formatKey(key));
  }

  list(options: ListOptions = {}): T[] {
    const { namespace, labels } = options;
    return [...this.objects.values()].filter(
      (object) =>
        (namespace === undefined || (object.metadata.namespace ?? '') === namespace) &&
        (labels === undefined || matchesLabels(object, labels)),
    );
  }

  /** Stores `object` and returns what it replaced. */
  put(object: T): T | undefined {
    const key = formatKey(keyOf(object));
    const previous = this.objects.get(key);
    this.objects.set(key, object);
    return previous;
  }

  remove(object: KubeObject): T | undefined {
    const key = formatKey(keyOf(object));
    const previous = this.objects.get(key);
    this.objects.delete(key);
    return previous;
  }

  /** Replaces the whole content (after a list) and returns the objects that are gone. */
  replace(objects: readonly T[]): T[] {
    const next = new Map(objects.map((object) => [formatKey(keyOf(object)), object] as const));
    const gone = [...this.objects].filter(([key]) => !next.has(key)).map(([, object]) => object);
    this.objects = next;
    return gone;
  }

  get size(): number {
    return this.objects.size;
  }
}
