// A scripted apiserver for unit tests: serves lists from memory and lets the test drive each watch.
import type { KubeClient, QueryParams, RequestOptions, WatchOptions } from '../kube/client.js';
import type { KubeObject } from '../kube/object.js';

interface OpenWatch {
  readonly path: string;
  readonly query: QueryParams;
  /** The representation asked for; undefined for whole objects. */
  readonly accept: string | undefined;
  readonly send: (type: string, object: unknown) => void;
  readonly end: (error: unknown) => void;
  readonly controller: AbortController;
}

/** The namespace a collection path is confined to, if any. */
function namespaceOf(path: string): string | undefined {
  return /\/namespaces\/([^/]+)\//.exec(path)?.[1];
}

/** Serves lists from `items` (those of the path's namespace, for a namespaced path) and records every watch so the test can drive it. */
export class ScriptedApiServer implements Pick<KubeClient, 'request' | 'watch'> {
  items: KubeObject[] = [];
  resourceVersion = '10';
  lists = 0;
  /** The representation each list asked for; undefined for whole objects. */
  readonly listAccepts: (string | undefined)[] = [];
  readonly listPaths: string[] = [];
  readonly watches: OpenWatch[] = [];

  request(_verb: string, path: string, options: RequestOptions = {}): Promise<unknown> {
    this.lists++;
    this.listAccepts.push(options.accept);
    this.listPaths.push(path);
    const namespace = namespaceOf(path);
    const items = namespace === undefined ? this.items : this.items.filter((item) => item.metadata.namespace === namespace);
    return Promise.resolve({ metadata: { resourceVersion: this.resourceVersion }, items });
  }

  watch(
    path: string,
    query: QueryParams,
    onEvent: (type: string, object: unknown) => void,
    onDone: (error: unknown) => void,
    options: WatchOptions = {},
  ): Promise<AbortController> {
    const controller = new AbortController();
    this.watches.push({ path, query, accept: options.accept, send: onEvent, end: onDone, controller });
    return Promise.resolve(controller);
  }

  get lastWatch(): OpenWatch {
    const watch = this.watches.at(-1);
    if (watch === undefined) throw new Error('no watch was opened');
    return watch;
  }
}

