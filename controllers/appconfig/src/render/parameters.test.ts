// Unit tests of parameter filling and field paths: values land where fieldPaths say; bad input is a problem value.
import { describe, expect, it } from 'vitest';
import { parseFieldPath, withField } from './field-path.js';
import { component } from './fixtures.js';
import { fillParameters } from './parameters.js';

describe('fillParameters', () => {
  it('writes each value at every fieldPath of its parameter and leaves the template itself untouched', () => {
    const multi = { ...component, spec: { ...component.spec, parameters: [{ name: 'port', fieldPaths: ['spec.clientService.port', 'metadata.labels[app.example/port]'] }] } };
    expect(fillParameters(multi, [{ name: 'port', value: 2182 }])).toStrictEqual({
      kind: 'filled',
      workload: {
        apiVersion: 'workload.zookeeper.zkoam.dev/v1alpha1',
        kind: 'ZookeeperWorkload',
        metadata: { labels: { team: 'data', 'app.example/port': 2182 } },
        spec: { storage: { size: '1Gi' }, clientService: { port: 2182 } },
      },
    });
    expect(component.spec.workload.spec).toStrictEqual({ storage: { size: '1Gi' } });
  });

  it.each([
    [[{ name: 'instance', value: 'a' }, { name: 'size', value: 3 }], 'Component zk: parameter(s) size not declared (declared: tickTime, instance)'],
    [[{ name: 'tickTime', value: 2000 }], 'Component zk: required parameter(s) instance have no value'],
  ])('reports %j as InvalidParameter', (values, message) => {
    expect(fillParameters(component, values)).toStrictEqual({ kind: 'problem', ref: undefined, reason: 'InvalidParameter', message });
  });

  it('reports a fieldPath that cannot be written as InvalidParameter', () => {
    const broken = { ...component, spec: { ...component.spec, parameters: [{ name: 'size', fieldPaths: ['spec.storage.size.value'] }] } };
    expect(fillParameters(broken, [{ name: 'size', value: '2Gi' }])).toMatchObject({
      kind: 'problem',
      reason: 'InvalidParameter',
      message: 'Component zk: field path "spec.storage.size.value" passes through a string value',
    });
  });
});

describe('field paths', () => {
  it('parses fields, list indexes and bracketed keys with dots', () => {
    expect(parseFieldPath('spec.containers[0][app.kubernetes.io/name]')).toStrictEqual([
      { kind: 'field', name: 'spec' },
      { kind: 'field', name: 'containers' },
      { kind: 'index', index: 0 },
      { kind: 'field', name: 'app.kubernetes.io/name' },
    ]);
  });

  it.each(['', '.spec', 'spec..replicas', 'spec[', 'spec[]'])('refuses the malformed path %j', (path) => {
    expect(() => parseFieldPath(path)).toThrow(/field path/);
  });

  it('creates missing objects and lists on the way, and refuses an index past the end of a list', () => {
    expect(withField({}, 'spec.containers[0].image', 'zk:3.9')).toStrictEqual({ spec: { containers: [{ image: 'zk:3.9' }] } });
    expect(() => withField({ spec: { items: [] } }, 'spec.items[2]', 1)).toThrow('indexes [2] past the end of a list of 0');
  });
});
