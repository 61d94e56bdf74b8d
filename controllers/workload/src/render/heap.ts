// The JVM heap of a member: spec.jvm.heap, else 75% of the memory limit (room for metaspace, threads, buffers), else 512Mi.
import { quantityValue, type ZookeeperWorkloadSpec } from '@zk-oam/apis';

const MIB = 2 ** 20;
export const DEFAULT_HEAP_MIB = 512;
export const HEAP_SHARE_OF_MEMORY_LIMIT = 0.75;

/** Heap size in MiB (whole, at least 1): -Xms and -Xmx are both set to it so the heap never resizes under load. */
export function heapMiB(spec: Pick<ZookeeperWorkloadSpec, 'jvm' | 'resources'>): number {
  const heap = spec.jvm?.heap;
  if (heap !== undefined) {
    return Math.max(1, Math.floor(quantityValue(heap) / MIB));
  }
  const memoryLimit = spec.resources?.limits?.memory;
  if (memoryLimit !== undefined) {
    return Math.max(1, Math.floor((quantityValue(memoryLimit) * HEAP_SHARE_OF_MEMORY_LIMIT) / MIB));
  }
  return DEFAULT_HEAP_MIB;
}

/**
 * How long the JVM keeps a name it resolved. Its default is forever: a member replaced under the same DNS name, with a
 * new pod IP, would never be found again by the others. A second: after a leader change the followers dial the new
 * leader by name, and one dialling a former address of it waits out a connect timeout before it looks again. ZooKeeper
 * resolves names only when it connects, so this costs next to nothing.
 */
export const DNS_CACHE_SECONDS = 1;
/**
 * How long it keeps a name's absence (its default is 10 s). A member's name is absent while its pod is replaced; a peer
 * that asked then must find it again as soon as the new pod has its address, or it cannot follow a new leader there.
 */
export const DNS_NEGATIVE_CACHE_SECONDS = 1;

/** JVM flags for start.sh (which takes one per line): heap and the DNS cache first, then the user's extra options (which can override them). */
export function jvmFlags(spec: Pick<ZookeeperWorkloadSpec, 'jvm' | 'resources'>): string[] {
  const heap = heapMiB(spec);
  return [
    `-Xms${heap}m`,
    `-Xmx${heap}m`,
    `-Dsun.net.inetaddr.ttl=${String(DNS_CACHE_SECONDS)}`,
    `-Dsun.net.inetaddr.negative.ttl=${String(DNS_NEGATIVE_CACHE_SECONDS)}`,
    ...(spec.jvm?.extraOptions ?? []),
  ];
}
