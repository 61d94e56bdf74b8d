// When each object of a collection first met a condition, from a watch: the moment it happens, where a list read it up
// to its interval late.
import { Watch, type KubeConfig } from '@kubernetes/client-node';
import { z } from 'zod';
import { waitFor } from '../src/controllers/index.js';

const watchedSchema = z.looseObject({ metadata: z.looseObject({ name: z.string() }) });

export interface FirstSeen {
  /** By name, the performance.now() at which the object was first seen to meet the condition. */
  readonly seen: Map<string, number>;
  stop(): void;
}

/** Watches `path` and records each object by name the first time `meets(type, object)` holds. */
export async function watchFirstSeen(kubeConfig: KubeConfig, path: string, meets: (type: string, object: Record<string, unknown>) => boolean): Promise<FirstSeen> {
  const seen = new Map<string, number>();
  const request = await new Watch(kubeConfig).watch(
    path,
    {},
    (type: string, object: unknown) => {
      const parsed = watchedSchema.safeParse(object);
      if (parsed.success && !seen.has(parsed.data.metadata.name) && meets(type, parsed.data)) seen.set(parsed.data.metadata.name, performance.now());
    },
    () => undefined,
  );
  return { seen, stop: () => request.abort() };
}

/** Waits until `count` objects have met the condition, checking every 50 ms; when the last of them did. */
export async function untilSeen(watch: FirstSeen, count: number, what: string, timeoutMs: number): Promise<number> {
  await waitFor(what, () => Promise.resolve(watch.seen.size), (seen) => seen >= count, timeoutMs, 50);
  return Math.max(...watch.seen.values());
}
