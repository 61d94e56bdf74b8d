// readWorkload: the workload from the cache parsed with its defaults, its status the one storedStatus parsed.
import { ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { kubeObjectSchema, storedStatus, type KubeObject, type Lister } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { readWorkload } from './observe.js';
import { WORKLOAD_STATUS } from './resources.js';

const metadata = { name: 'zk', namespace: 'prod', uid: 'u-1', resourceVersion: '7', generation: 1 };

function cachesHolding(object: KubeObject): Parameters<typeof readWorkload>[0] {
  const empty: Lister<KubeObject> = { get: () => undefined, list: () => [] };
  const workloads: Lister<KubeObject> = { get: ({ name }) => (name === object.metadata.name ? object : undefined), list: () => [object] };
  return { caches: { workloads, statefulSets: empty, configMaps: empty, services: empty, podDisruptionBudgets: empty, secrets: empty, secretMetadata: empty, pods: empty } };
}

function cached(spec: unknown, status?: unknown): KubeObject {
  return kubeObjectSchema.parse({ apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind, metadata, spec, ...(status === undefined ? {} : { status }) });
}

describe('readWorkload', () => {
  it('gives the spec with its defaults, and the status storedStatus parsed: one parse of each stored status', () => {
    const raw = cached({ replicas: 3 }, { phase: 'Creating', replicas: 0, readyReplicas: 0 });
    const reading = readWorkload(cachesHolding(raw), { namespace: 'prod', name: 'zk' });
    if (reading.kind !== 'valid') throw new Error(`expected a valid workload, got ${reading.kind}`);
    expect(reading.workload.spec.replicas).toBe(3);
    expect(reading.workload.spec.clientService.port).toBe(2181);
    expect(reading.workload.status).toBe(storedStatus(WORKLOAD_STATUS.schema, raw));
    expect(reading.workload.status?.phase).toBe('Creating');
  });

  it('gives no status before one is written', () => {
    const reading = readWorkload(cachesHolding(cached({})), { namespace: 'prod', name: 'zk' });
    expect(reading.kind === 'valid' && reading.workload.status).toBeUndefined();
  });

  it('calls a workload whose spec does not validate invalid, naming the field', () => {
    const reading = readWorkload(cachesHolding(cached({ replicas: 'three' })), { namespace: 'prod', name: 'zk' });
    expect(reading.kind).toBe('invalid');
    expect(reading.kind === 'invalid' && reading.error.message).toContain('replicas');
  });
});
