import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../kube/object.js';
import type { ResourceType } from '../kube/resource.js';
import { decideBinding, type BindingDecisionInput } from './binding-decision.js';

const workloadResource: ResourceType = { group: 'example.dev', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true };
const annotation = 'trait.example.dev/bound';

function widget(metadata: Partial<KubeObject['metadata']> = {}): KubeObject {
  return { apiVersion: 'example.dev/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'ns', uid: 'u1', ...metadata } };
}

function input(overrides: Partial<BindingDecisionInput> = {}): BindingDecisionInput {
  return {
    reference: { apiVersion: 'example.dev/v1', kind: 'Widget', name: 'w' },
    workloadResource,
    workload: widget(),
    bindingAnnotation: annotation,
    traitName: 't',
    ...overrides,
  };
}

describe('decideBinding', () => {
  it('binds to an existing workload of the right kind', () => {
    expect(decideBinding(input())).toEqual({ kind: 'Bindable', workload: widget() });
  });

  it('binds again to a workload already naming this trait (any version of the group)', () => {
    const bound = widget({ annotations: { [annotation]: 't' } });
    const decision = decideBinding(input({ workload: bound, reference: { apiVersion: 'example.dev/v2', kind: 'Widget', name: 'w' } }));
    expect(decision).toEqual({ kind: 'Bindable', workload: bound });
  });

  it.each([
    ['another kind', { apiVersion: 'example.dev/v1', kind: 'Gadget', name: 'w' }],
    ['another group', { apiVersion: 'other.dev/v1', kind: 'Widget', name: 'w' }],
    ['the core group', { apiVersion: 'v1', kind: 'Widget', name: 'w' }],
  ])('refuses a reference to %s, naming what it applies to', (_, reference) => {
    const decision = decideBinding(input({ reference }));
    expect(decision).toMatchObject({ kind: 'Problem', reason: 'WorkloadKindUnsupported' });
    expect(decision.kind === 'Problem' && decision.message).toContain('applies to Widget (example.dev) only');
  });

  it('waits for a workload that does not exist', () => {
    expect(decideBinding(input({ workload: undefined }))).toEqual({
      kind: 'Problem',
      reason: 'WorkloadNotFound',
      message: 'Widget w does not exist in this namespace; waiting for it',
    });
  });

  it('does not bind to a workload being deleted', () => {
    expect(decideBinding(input({ workload: widget({ deletionTimestamp: '2026-01-01T00:00:00Z' }) }))).toMatchObject({
      kind: 'Problem',
      reason: 'WorkloadDeleting',
    });
  });

  it('refuses a second trait of the same kind, naming the one bound', () => {
    const decision = decideBinding(input({ workload: widget({ annotations: { [annotation]: 'first' } }) }));
    expect(decision).toMatchObject({ kind: 'Problem', reason: 'WorkloadBoundToOtherTrait' });
    expect(decision.kind === 'Problem' && decision.message).toContain('already bound to first');
  });
});
