// Unit tests of the ScaleRefused condition: present only while refused, its time kept, its Event recorded once.
import { describe, expect, it } from 'vitest';
import { isNewRefusal, refusalMessage, withScaleRefusal, type ScaleRefusal } from './scale-refusal.js';

const refusal: ScaleRefusal = { from: 3, to: 5, message: refusalMessage(3, 5) };
const context = { generation: 4, now: new Date('2026-11-22T05:00:00.500Z') };
const ready = { type: 'Ready', status: 'True', reason: 'QuorumHealthy', message: 'ok', lastTransitionTime: '2026-11-22T04:00:00Z' } as const;

describe('withScaleRefusal', () => {
  it('adds a ScaleRefused condition naming the trait while a change is refused', () => {
    const status = withScaleRefusal({ conditions: [ready] }, refusal, undefined, context);
    expect(status.conditions).toEqual([
      ready,
      {
        type: 'ScaleRefused',
        status: 'True',
        reason: 'ScaleTraitRequired',
        message: 'spec.replicas changed from 3 to 5; membership changes need a ZookeeperScale trait (scale.zookeeper.zkoam.dev) bound to this workload; kept 3',
        observedGeneration: 4,
        lastTransitionTime: '2026-11-22T05:00:00Z',
      },
    ]);
  });

  it('keeps the transition time of a refusal already stored, and drops the condition once nothing is refused', () => {
    const stored = withScaleRefusal({ conditions: [ready] }, refusal, undefined, { generation: 3, now: new Date('2026-11-22T04:30:00Z') });
    const again = withScaleRefusal({ conditions: [ready] }, refusal, stored, context);
    expect(again.conditions?.find((c) => c.type === 'ScaleRefused')?.lastTransitionTime).toBe('2026-11-22T04:30:00Z');
    expect(withScaleRefusal({ conditions: [ready] }, undefined, stored, context).conditions).toEqual([ready]);
  });
});

describe('isNewRefusal', () => {
  it('is true for a refusal not yet in the stored status, false once it is stored or when nothing is refused', () => {
    const stored = withScaleRefusal({}, refusal, undefined, context);
    expect(isNewRefusal(refusal, undefined)).toBe(true);
    expect(isNewRefusal(refusal, stored)).toBe(false);
    expect(isNewRefusal({ from: 3, to: 7, message: refusalMessage(3, 7) }, stored)).toBe(true);
    expect(isNewRefusal(undefined, undefined)).toBe(false);
  });
});
