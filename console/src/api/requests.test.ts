import { describe, expect, it } from 'vitest';
import { ConsoleProblem } from '../http/problem.js';
import { mergePatch } from './merge-patch.js';
import { createRequestSchema, restartRequestSchema, scaleRequestSchema, validated } from './requests.js';

function refusal(run: () => unknown): ConsoleProblem {
  try {
    run();
  } catch (error) {
    if (error instanceof ConsoleProblem) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('validated', () => {
  it('accepts a create request with the CRD schema\'s defaults applied', () => {
    const request = validated(createRequestSchema, { metadata: { name: 'zk' }, spec: { replicas: 5 } });
    expect(request.spec.replicas).toBe(5);
    expect(request.spec.image.tag).toBe('3.9.4');
  });

  it('refuses with 400 naming every rejected field by its path in the body', () => {
    const problem = refusal(() => validated(createRequestSchema, { metadata: { name: 'Not_A_Name' }, spec: { replicas: 0, storage: { reclaimPolicy: 'Keep' } } }));
    expect(problem.code).toBe(400);
    expect(problem.fields?.map((field) => field.path)).toStrictEqual(['metadata.name', 'spec.replicas', 'spec.storage.reclaimPolicy']);
    expect(problem.message).toContain('spec.replicas: expected number >= 1, got 0');
  });

  it('refuses a workload name longer than the derived names allow', () => {
    const problem = refusal(() => validated(createRequestSchema, { metadata: { name: 'z'.repeat(60) }, spec: {} }));
    expect(problem.fields?.[0]?.path).toBe('metadata.name');
  });

  it('takes a scale size within the scale trait\'s bounds, and an optional restart trigger', () => {
    expect(validated(scaleRequestSchema, { replicas: 5 })).toStrictEqual({ replicas: 5 });
    expect(refusal(() => validated(scaleRequestSchema, { replicas: 'five' })).fields?.[0]?.path).toBe('replicas');
    expect(refusal(() => validated(scaleRequestSchema, { replicas: 32 })).fields?.[0]?.problem).toContain('<= 31');
    expect(validated(restartRequestSchema, {})).toStrictEqual({});
    expect(refusal(() => validated(restartRequestSchema, { trigger: 7 })).fields?.[0]?.path).toBe('trigger');
  });
});

describe('mergePatch', () => {
  it('merges objects key by key, removes keys set to null and replaces arrays and scalars (RFC 7386)', () => {
    const target = { spec: { replicas: 3, image: { tag: '3.8.4', repository: 'zookeeper' }, placement: { tolerations: [1, 2] } }, metadata: { labels: { a: '1' } } };
    const patch = { spec: { image: { tag: '3.9.3' }, placement: { tolerations: [3] } }, metadata: { labels: { a: null, b: '2' } } };
    expect(mergePatch(target, patch)).toStrictEqual({
      spec: { replicas: 3, image: { tag: '3.9.3', repository: 'zookeeper' }, placement: { tolerations: [3] } },
      metadata: { labels: { b: '2' } },
    });
    expect(target.spec.image.tag).toBe('3.8.4');
  });

  it('replaces a non-object target and returns a non-object patch as it is', () => {
    expect(mergePatch('x', { a: 1 })).toStrictEqual({ a: 1 });
    expect(mergePatch({ a: 1 }, [1])).toStrictEqual([1]);
  });
});
