// The event contract: staged parsing names what is wrong, the builder validates, subjects stay one token per name.
import { describe, expect, it } from 'vitest';
import { createEvent, parseEvent, workloadEvent, zkEventTypes } from './event.js';
import { eventFilterSubject, subjectOfEvent } from './subject.js';

const subject = { apiVersion: 'workload.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperWorkload', namespace: 'prod', name: 'zk.main' };
const leaderChanged = {
  id: '6f1c1d2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f',
  source: 'workload-controller',
  type: 'LeaderChanged',
  subject,
  time: '2026-11-22T04:00:00.000Z',
  data: { from: 'zk-0', to: 'zk-2' },
};

describe('parseEvent', () => {
  it('accepts a well-formed event and keeps its data', () => {
    expect(parseEvent(leaderChanged)).toEqual({ ok: true, event: leaderChanged });
  });

  it.each([
    ['a string', 'hello'],
    ['an id that is not a UUID', { ...leaderChanged, id: 'abc' }],
    ['a time without offset', { ...leaderChanged, time: '2026-11-22T04:00:00' }],
    ['a subject without namespace', { ...leaderChanged, subject: { ...subject, namespace: undefined } }],
  ])('rejects %s as an invalid envelope', (_what, payload) => {
    expect(parseEvent(payload)).toMatchObject({ ok: false, reason: 'invalid_envelope' });
  });

  it('rejects an unknown type and names it', () => {
    expect(parseEvent({ ...leaderChanged, type: 'Exploded' })).toMatchObject({
      ok: false,
      reason: 'unknown_type',
      type: 'Exploded',
    });
  });

  it('rejects data that does not match the type, naming the field path', () => {
    const result = parseEvent({ ...leaderChanged, type: 'ReadinessChanged', data: { ready: 'yes', readyReplicas: 1, replicas: 3 } });
    expect(result).toMatchObject({ ok: false, reason: 'invalid_data', type: 'ReadinessChanged' });
    expect(result.ok ? '' : result.message).toContain('data.ready');
  });
});

describe('createEvent', () => {
  it('fills id and time and validates the data', () => {
    const event = createEvent({ type: 'ScaleStepStarted', source: 'scale-controller', subject, data: { step: 1, from: 3, to: 4, member: 'zk-3' } });
    expect(parseEvent(JSON.parse(JSON.stringify(event)))).toEqual({ ok: true, event });
  });

  it('throws when the publisher breaks the contract', () => {
    expect(() =>
      createEvent({ type: 'ScaleStepStarted', source: 'scale-controller', subject, data: { step: 0, from: 3, to: 4 } }),
    ).toThrow(/step/);
  });
});

describe('workloadEvent', () => {
  it('names the workload as the subject, its uid only when known, and keeps the time given', () => {
    const time = new Date('2026-11-22T04:00:00.000Z');
    const known = workloadEvent({ type: 'LeaderChanged', data: { from: 'zk-0', to: 'zk-2' } }, { namespace: 'prod', name: 'zk.main', uid: 'u-1' }, { source: 's', time });
    expect(known).toMatchObject({ type: 'LeaderChanged', source: 's', time: time.toISOString(), subject: { ...subject, uid: 'u-1' } });
    const unknown = workloadEvent({ type: 'LeaderChanged', data: { from: 'zk-0', to: 'zk-2' } }, { namespace: 'prod', name: 'zk.main', uid: undefined }, { source: 's' });
    expect(Object.keys(unknown.subject)).not.toContain('uid');
  });
});

describe('subjects', () => {
  it('puts namespace, workload and type in one token each, dots in names escaped', () => {
    const event = createEvent({ type: 'RollingCompleted', source: 'rolling-controller', subject, data: {} });
    expect(subjectOfEvent(event)).toBe('zk.prod.zk_main.RollingCompleted');
  });

  it('builds filters with wildcards for the parts left open', () => {
    expect(eventFilterSubject({})).toBe('zk.*.*.*');
    expect(eventFilterSubject({ namespace: 'prod', type: 'LeaderChanged' })).toBe('zk.prod.*.LeaderChanged');
  });

  it('knows every event type the controllers publish', () => {
    expect([...zkEventTypes].sort()).toEqual(
      [
        'LeaderChanged', 'MembershipChanged', 'ReadinessChanged', 'TemplateRevisionChanged',
        'ScaleStepStarted', 'ScaleStepCompleted', 'ScaleBlocked',
        'RollingStepStarted', 'RollingStepCompleted', 'RollingBlocked', 'RollingCompleted',
      ].sort(),
    );
  });
});
