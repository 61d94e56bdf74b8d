// When a data output is ready, by v0.3.3's rules, and how its value is written.
import { describe, expect, it } from 'vitest';
import { dataValue, filled } from './data-value.js';

const source = { status: { phase: 'Ready', endpoint: 'zk-client:2181', empty: '', ports: [2181], count: 3 } };
const appConfig = { spec: { expected: 'Ready' } };

describe('dataValue', () => {
  it('emits a non-empty string without conditions, and refuses an empty or missing one or a missing object', () => {
    expect(dataValue({ fieldPath: 'status.endpoint', conditions: [] }, source, 'ns/src', appConfig)).toEqual({ ready: true, value: 'zk-client:2181' });
    expect(dataValue({ fieldPath: 'status.empty', conditions: [] }, source, 'ns/src', appConfig)).toEqual({ ready: false, reason: 'value should not be empty' });
    expect(dataValue({ fieldPath: 'status.nope', conditions: [] }, source, 'ns/src', appConfig)).toEqual({ ready: false, reason: 'status.nope not found in object' });
    expect(dataValue({ fieldPath: 'status.endpoint', conditions: [] }, undefined, 'ns/src', appConfig)).toEqual({ ready: false, reason: 'failed to get object (ns/src)' });
  });

  it('checks eq, notEq and notEmpty against the value, another field, or a field of the ApplicationConfiguration', () => {
    const output = (conditions: Parameters<typeof dataValue>[0]['conditions']) => ({ fieldPath: 'status.endpoint', conditions });
    expect(dataValue(output([{ op: 'eq', value: 'Ready', fieldPath: 'status.phase' }]), source, 'ns/src', appConfig)).toEqual({ ready: true, value: 'zk-client:2181' });
    expect(dataValue(output([{ op: 'eq', value: 'Pending', fieldPath: 'status.phase' }]), source, 'ns/src', appConfig)).toEqual({ ready: false, reason: 'got(Ready) expected to be Pending' });
    expect(dataValue(output([{ op: 'notEq', value: 'zk-client:2181' }]), source, 'ns/src', appConfig)).toEqual({ ready: false, reason: 'got(zk-client:2181) expected not to be zk-client:2181' });
    expect(dataValue(output([{ op: 'eq', valueFrom: { fieldPath: 'spec.expected' }, fieldPath: 'status.phase' }]), source, 'ns/src', appConfig)).toMatchObject({ ready: true });
    expect(dataValue(output([{ op: 'notEmpty', fieldPath: 'status.empty' }]), source, 'ns/src', appConfig)).toEqual({ ready: false, reason: 'value should not be empty' });
  });

  it('emits a list or a number once its conditions hold; a condition without a field path cannot check it', () => {
    expect(dataValue({ fieldPath: 'status.ports', conditions: [] }, source, 'ns/src', appConfig)).toEqual({ ready: true, value: [2181] });
    expect(dataValue({ fieldPath: 'status.count', conditions: [{ op: 'notEmpty' }] }, source, 'ns/src', appConfig)).toEqual({
      ready: false,
      reason: "can't get value to check FieldPath not specified",
    });
  });
});

describe('filled', () => {
  it('writes the value at each path, appending a list to the list already there', () => {
    expect(filled({ spec: { a: 1 } }, ['spec.endpoint', 'metadata.annotations[zk]'], 'zk:2181')).toEqual({
      spec: { a: 1, endpoint: 'zk:2181' },
      metadata: { annotations: { zk: 'zk:2181' } },
    });
    expect(filled({ spec: { ports: [80] } }, ['spec.ports'], [2181])).toEqual({ spec: { ports: [80, 2181] } });
  });
});
