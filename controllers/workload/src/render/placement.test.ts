// Placement: the spec's anti-affinity mode merged with the user's own affinity rules.
import { memberSelectorLabels } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { AffinityShapeError, buildAffinity } from './placement.js';
import { minimalWorkload, withSpec } from './test-workloads.js';

const ownTerm = { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: memberSelectorLabels('zk') } };
const userTerm = { topologyKey: 'topology.kubernetes.io/zone', labelSelector: { matchLabels: { app: 'other' } } };

function affinityWith(placement: Record<string, unknown>): ReturnType<typeof buildAffinity> {
  return buildAffinity(withSpec(minimalWorkload(), (spec) => ({ ...spec, placement: { ...spec.placement, ...placement } })));
}

describe('buildAffinity', () => {
  it('renders no affinity at all when anti-affinity is off and the user gives none', () => {
    expect(affinityWith({ antiAffinity: 'none' })).toBeUndefined();
  });

  it('puts the members\' own required term first, before the user\'s terms, and keeps the user\'s other rules', () => {
    const podAffinity = { requiredDuringSchedulingIgnoredDuringExecution: [userTerm] };
    expect(
      affinityWith({
        antiAffinity: 'required',
        affinity: { podAffinity, podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [userTerm] } },
      }),
    ).toEqual({ podAffinity, podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [ownTerm, userTerm] } });
  });

  it('keeps the user\'s anti-affinity terms as they are when the mode is none', () => {
    expect(affinityWith({ antiAffinity: 'none', affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [userTerm] } } })).toEqual({
      podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [userTerm] },
    });
  });

  it('refuses an affinity field that is not an object', () => {
    expect(() => affinityWith({ affinity: { nodeAffinity: 'everywhere' } })).toThrow(AffinityShapeError);
  });
});
