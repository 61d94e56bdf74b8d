// The condition rule every controller's status follows: metav1.Condition's, in whole seconds.
import type { Condition } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { conditionMessage, setCondition, setConditions } from './condition.js';

const at = (iso: string) => ({ generation: 4, now: new Date(iso) });
const ready = { type: 'Ready', status: 'True', reason: 'Serving', message: 'all members serving' } as const;
const stored: Condition[] = [
  { type: 'Ready', status: 'True', reason: 'Serving', message: 'all members serving', observedGeneration: 3, lastTransitionTime: '2026-11-22T04:00:00Z' },
  { type: 'Degraded', status: 'False', reason: 'Healthy', message: '', observedGeneration: 3, lastTransitionTime: '2026-11-22T03:00:00Z' },
];

describe('setCondition', () => {
  it('adds a condition of a new type last, dated now in whole seconds as Kubernetes writes metav1.Time', () => {
    expect(setCondition(undefined, ready, at('2026-11-22T05:00:00.750Z'))).toStrictEqual([
      { ...ready, observedGeneration: 4, lastTransitionTime: '2026-11-22T05:00:00Z' },
    ]);
    expect(setCondition(stored.slice(1), ready, at('2026-11-22T05:00:00Z')).map((condition) => condition.type)).toEqual(['Degraded', 'Ready']);
  });

  it('keeps the transition time while the status holds, whatever the new reason, message or generation', () => {
    const next = setCondition(stored, { ...ready, reason: 'QuorumHealthy', message: '3 of 3 serving' }, at('2026-11-22T05:00:00Z'));
    expect(next[0]).toStrictEqual({ type: 'Ready', status: 'True', reason: 'QuorumHealthy', message: '3 of 3 serving', observedGeneration: 4, lastTransitionTime: '2026-11-22T04:00:00Z' });
  });

  it('dates the condition now when its status changes, in its place among the others, which stay as they were', () => {
    const next = setCondition(stored, { ...ready, status: 'False', reason: 'NoQuorum' }, at('2026-11-22T05:00:00Z'));
    expect(next[0]?.lastTransitionTime).toBe('2026-11-22T05:00:00Z');
    expect(next[1]).toBe(stored[1]);
  });

  it('leaves observedGeneration out when the generation is not known', () => {
    expect(setCondition(stored, ready, { generation: undefined, now: new Date('2026-11-22T05:00:00Z') })[0]).not.toHaveProperty('observedGeneration');
  });
});

describe('setConditions', () => {
  it('sets each verdict in turn, in place or last', () => {
    const degraded = { type: 'Degraded', status: 'True', reason: 'MemberDown', message: 'zk-1 is down' } as const;
    const progressing = { type: 'Progressing', status: 'False', reason: 'UpToDate', message: '' } as const;
    const next = setConditions(stored, [ready, degraded, progressing], at('2026-11-22T05:00:00Z'));
    expect(next.map((condition) => [condition.type, condition.lastTransitionTime])).toEqual([
      ['Ready', '2026-11-22T04:00:00Z'],
      ['Degraded', '2026-11-22T05:00:00Z'],
      ['Progressing', '2026-11-22T05:00:00Z'],
    ]);
  });
});

describe('conditionMessage', () => {
  it('keeps a message whole up to 4 KiB and cuts a longer one there', () => {
    expect(conditionMessage('spec.replicas: too small')).toBe('spec.replicas: too small');
    expect(conditionMessage('x'.repeat(5000))).toHaveLength(4096);
  });
});
