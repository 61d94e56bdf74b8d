// One informer of a kind per watched namespace, merged into one cache and one stream of events: a controller confined
// to a few namespaces (RBAC granted in each, none cluster-wide) reads and is told as if it had a single informer.
// Every namespace when none is named, and always for a cluster-scoped kind.
import type { KubeObject, ObjectKey } from '../kube/object.js';
import type { ResourceType } from '../kube/resource.js';
import type { InformerListener } from './informer-event.js';
import { Informer, type InformerOptions } from './informer.js';
import type { Lister, ListOptions } from './store.js';

/** What a controller reads of an informer: its kind, its cache and its events. */
export interface InformerView<T extends KubeObject> {
  readonly resource: ResourceType;
  readonly lister: Lister<T>;
  subscribe(listener: InformerListener<T>): void;
}

export interface MergedInformerOptions<T extends KubeObject> extends Omit<InformerOptions<T>, 'namespace'> {
  /** Distinct namespaces, one informer each; every namespace when empty. */
  readonly namespaces: readonly string[];
}

/** The merged cache: the namespaces are disjoint, so an object is in one informer's store at most. */
class MergedLister<T extends KubeObject> implements Lister<T> {
  constructor(private readonly informers: readonly Informer<T>[]) {}

  get(key: ObjectKey): T | undefined {
    for (const informer of this.informers) {
      const object = informer.lister.get(key);
      if (object !== undefined) return object;
    }
    return undefined;
  }

  list(options?: ListOptions): T[] {
    return this.informers.flatMap((informer) => informer.lister.list(options));
  }
}

export class MergedInformer<T extends KubeObject> implements InformerView<T> {
  readonly resource: ResourceType;
  readonly lister: Lister<T>;
  private readonly informers: readonly Informer<T>[];

  constructor({ namespaces, ...options }: MergedInformerOptions<T>) {
    this.resource = options.resource;
    const scopes = options.resource.namespaced && namespaces.length > 0 ? namespaces : [undefined];
    this.informers = scopes.map((namespace) => new Informer<T>(namespace === undefined ? options : { ...options, namespace }));
    this.lister = new MergedLister(this.informers);
  }

  subscribe(listener: InformerListener<T>): void {
    this.informers.forEach((informer) => informer.subscribe(listener));
  }

  /** Synced once every namespace's first list is in the cache. */
  hasSynced(): boolean {
    return this.informers.every((informer) => informer.hasSynced());
  }

  async waitForSync(): Promise<void> {
    await Promise.all(this.informers.map((informer) => informer.waitForSync()));
  }

  start(): void {
    this.informers.forEach((informer) => informer.start());
  }

  async stop(): Promise<void> {
    await Promise.all(this.informers.map((informer) => informer.stop()));
  }
}
