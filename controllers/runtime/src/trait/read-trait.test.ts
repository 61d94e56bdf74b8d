// A trait read from the cache: absent, invalid (reported by its controller), or parsed with the workload it names.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { Lister } from '../informer/store.js';
import type { KubeObject } from '../kube/object.js';
import { readTrait } from './read-trait.js';
import { childToTraits, traitsOfWorkload, workloadNamedBy } from './workload-traits.js';

const schema = z.object({
  metadata: z.object({ name: z.string(), namespace: z.string() }),
  spec: z.object({ workloadRef: z.object({ name: z.string() }), replicas: z.int().min(1) }),
});
const object = (namespace: string, name: string, spec: unknown = undefined): KubeObject => ({ metadata: { name, namespace }, ...(spec === undefined ? {} : { spec }) });

function lister(objects: readonly KubeObject[]): Lister<KubeObject> {
  return {
    get: (key) => objects.find((candidate) => candidate.metadata.name === key.name && candidate.metadata.namespace === key.namespace),
    list: (options) => objects.filter((candidate) => options?.namespace === undefined || candidate.metadata.namespace === options.namespace),
  };
}

const zk = object('ns', 'zk');
const caches = {
  traits: lister([object('ns', 'grow', { workloadRef: { name: 'zk' }, replicas: 5 }), object('ns', 'broken', { workloadRef: { name: 'zk' }, replicas: 0 })]),
  workloads: lister([zk]),
};

describe('readTrait', () => {
  it('parses the trait and finds the workload it names in its namespace', () => {
    const reading = readTrait(caches, schema, 'Widget', { namespace: 'ns', name: 'grow' });
    expect(reading).toMatchObject({ kind: 'valid', trait: { spec: { replicas: 5 } }, workload: zk });
  });

  it('says absent for a trait not in the cache, and invalid, naming the kind and the field, for one that does not parse', () => {
    expect(readTrait(caches, schema, 'Widget', { namespace: 'ns', name: 'gone' })).toEqual({ kind: 'absent' });
    const reading = readTrait(caches, schema, 'Widget', { namespace: 'ns', name: 'broken' });
    expect(reading.kind).toBe('invalid');
    expect(reading.kind === 'invalid' ? reading.error.message : '').toBe('invalid Widget ns/broken: spec.replicas: expected number >= 1, got 0');
  });
});

describe('traitsOfWorkload', () => {
  it('lists the traits of the namespace whose workloadRef names the workload, however invalid their spec', () => {
    const other = lister([...caches.traits.list(), object('ns', 'other', { workloadRef: { name: 'zk2' } }), object('ns2', 'elsewhere', { workloadRef: { name: 'zk' } })]);
    expect(traitsOfWorkload(other, { namespace: 'ns', name: 'zk' })).toEqual([
      { namespace: 'ns', name: 'grow' },
      { namespace: 'ns', name: 'broken' },
    ]);
  });

  it('reads no name from an object without a workloadRef', () => {
    expect(workloadNamedBy({ spec: {} })).toBeUndefined();
    expect(workloadNamedBy(undefined)).toBeUndefined();
  });
});

describe('childToTraits', () => {
  it('maps an object to the traits naming the workload it belongs to, in its namespace, and one of no workload to none', () => {
    const byLabel = childToTraits(caches.traits, (child) => child.metadata.labels?.['instance']);
    expect(byLabel({ metadata: { name: 'zk-0', namespace: 'ns', labels: { instance: 'zk' } } })).toEqual([
      { namespace: 'ns', name: 'grow' },
      { namespace: 'ns', name: 'broken' },
    ]);
    expect(byLabel({ metadata: { name: 'zk-0', namespace: 'ns2', labels: { instance: 'zk' } } })).toEqual([]);
    expect(byLabel({ metadata: { name: 'other', namespace: 'ns' } })).toEqual([]);
  });
});
