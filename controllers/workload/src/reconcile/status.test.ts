// The status step on a cache that has not caught up with its own last write: the facts are announced once.
import type { ZkEvent } from '@zk-oam/apis';
import { WrittenStatuses, type KubeObject } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { minimalWorkload } from '../render/test-workloads.js';
import { WORKLOAD_STATUS } from './resources.js';
import { reportStatus } from './status.js';

function fakeDeps() {
  const writes: unknown[] = [];
  const announced: string[] = [];
  const published: ZkEvent[] = [];
  const deps = {
    // The apiserver stores the status at resourceVersion 12 and answers with the object so stored.
    client: {
      request: (_verb: string, _path: string, options?: { body?: unknown }): Promise<unknown> => {
        writes.push(options?.body);
        const body = options?.body as { status?: unknown } | undefined;
        return Promise.resolve({ metadata: { namespace: 'prod', name: 'zk', uid: minimalWorkload().metadata.uid, resourceVersion: '12' }, status: body?.status });
      },
    },
    caches: { pods: { get: () => undefined, list: (): KubeObject[] => [] } },
    recorder: { record: (_regarding: KubeObject, details: { reason: string }) => Promise.resolve(void announced.push(details.reason)) },
    bus: { publish: (event: ZkEvent) => Promise.resolve(void published.push(event)) },
    observe: () => Promise.reject(new Error('no member to observe')),
    observations: { record: () => undefined, forget: () => undefined },
    statuses: new WrittenStatuses(WORKLOAD_STATUS.schema),
    now: () => new Date('2026-11-30T01:00:00Z'),
    source: 'test',
  };
  return { deps, writes, announced, published };
}

describe('the workload status step', () => {
  it('neither writes nor announces again when the next reconcile reads a copy older than its own write', async () => {
    const { deps, writes, announced, published } = fakeDeps();
    const workload = minimalWorkload();
    // The copy in the cache, at 11, still names a leader that is gone: the status written at 12 is not there yet.
    const stale: KubeObject = { ...workload, metadata: { ...workload.metadata, resourceVersion: '11' }, status: { leader: 'zk-0' } };
    const outcomes = { refusal: undefined, restore: undefined };
    const access = { port: 2181, tls: undefined };

    const first = await reportStatus(deps, stale, workload, undefined, outcomes, access);
    expect(first.written).toBe(true);
    expect(announced).toEqual(['LeaderChanged']);
    const said = { writes: writes.length, announced: [...announced], published: published.length };

    const second = await reportStatus(deps, stale, workload, undefined, outcomes, access);
    expect(second).toMatchObject({ written: false, changes: [] });
    expect({ writes: writes.length, announced, published: published.length }).toEqual(said);
  });
});
