// A label selector as the apiserver reads one: what it accepts, and which labels it selects.
import { describe, expect, it } from 'vitest';
import { crdManifests } from '../crd/manifests.js';
import { labelSelectorSchema, matchesLabelSelector } from './label-selector.js';

/** The schema of one matchExpressions item of the workload CRD's spec.znodes.namespaceSelector. */
function workloadSelectorRequirement() {
  const crd = crdManifests().find((candidate) => candidate.spec.names.kind === 'ZookeeperWorkload');
  const spec = crd?.spec.versions[0]?.schema.openAPIV3Schema.properties?.['spec'];
  const selector = spec?.properties?.['znodes']?.properties?.['namespaceSelector'];
  return selector?.properties?.['matchExpressions']?.items;
}

describe('labelSelectorSchema', () => {
  it.each([
    ['an empty selector', {}],
    ['matchLabels', { matchLabels: { team: 'streaming' } }],
    ['In with values', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['prod'] }] }],
    ['Exists without values', { matchExpressions: [{ key: 'tier', operator: 'Exists' }] }],
  ])('accepts %s', (_case, selector) => {
    expect(labelSelectorSchema.safeParse(selector).success).toBe(true);
  });

  it.each([
    ['In without values', { matchExpressions: [{ key: 'tier', operator: 'In' }] }],
    ['NotIn with no value', { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: [] }] }],
    ['Exists with values', { matchExpressions: [{ key: 'tier', operator: 'Exists', values: ['prod'] }] }],
    ['an unknown operator', { matchExpressions: [{ key: 'tier', operator: 'Gt', values: ['1'] }] }],
    ['an empty key', { matchExpressions: [{ key: '', operator: 'Exists' }] }],
  ])('refuses %s', (_case, selector) => {
    expect(labelSelectorSchema.safeParse(selector).success).toBe(false);
  });

  it("is checked by the workload CRD with the same rule on the values, at spec.znodes.namespaceSelector", () => {
    const requirement = workloadSelectorRequirement();
    expect(requirement?.['x-kubernetes-validations']?.map((rule) => rule.fieldPath)).toEqual(['.values']);
    expect(requirement?.properties?.['operator']?.enum).toEqual(['In', 'NotIn', 'Exists', 'DoesNotExist']);
  });
});

describe('matchesLabelSelector', () => {
  const labels = { team: 'streaming', tier: 'prod' };

  it('selects everything with an empty selector, and ANDs every part', () => {
    expect(matchesLabelSelector({}, {})).toBe(true);
    expect(matchesLabelSelector({ matchLabels: { team: 'streaming' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['prod'] }] }, labels)).toBe(true);
    expect(matchesLabelSelector({ matchLabels: { team: 'streaming' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['dev'] }] }, labels)).toBe(false);
  });

  it('lets NotIn and DoesNotExist select a namespace without the label, and In and Exists not', () => {
    expect(matchesLabelSelector({ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }, labels)).toBe(true);
    expect(matchesLabelSelector({ matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }, labels)).toBe(true);
    expect(matchesLabelSelector({ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }, labels)).toBe(false);
    expect(matchesLabelSelector({ matchExpressions: [{ key: 'zone', operator: 'Exists' }] }, labels)).toBe(false);
  });
});
