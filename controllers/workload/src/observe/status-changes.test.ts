// statusChanges: each fact becomes one NATS event the contract accepts and one Kubernetes Event a person reads.
import { createEvent, ZOOKEEPER_WORKLOAD, type ZookeeperWorkloadStatus } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import type { CommittedMembership, DerivedStatus } from './derive-status.js';
import { statusChanges, type StatusChange } from './status-changes.js';

const MEMBERSHIP: CommittedMembership = {
  configVersion: '200000000',
  members: [
    { myid: 1, pod: 'zk-0', role: 'participant' },
    { myid: 2, pod: 'zk-1', role: 'participant' },
    { myid: 3, pod: 'zk-2', role: 'participant' },
  ],
};

const ready = (status: 'True' | 'False'): NonNullable<ZookeeperWorkloadStatus['conditions']> => [
  { type: 'Ready', status, reason: 'Any', message: '', lastTransitionTime: '2026-11-22T04:00:00Z' },
];

const STEADY: ZookeeperWorkloadStatus = {
  phase: 'Running',
  replicas: 3,
  readyReplicas: 3,
  leader: 'zk-0',
  configVersion: '200000000',
  updateRevision: 'zk-rev1',
  conditions: ready('True'),
};

const next = (changes: Partial<ZookeeperWorkloadStatus>, membership: CommittedMembership | undefined = MEMBERSHIP): DerivedStatus => ({
  status: { ...STEADY, ...changes },
  membership,
});

/** A new workload's first status: its members are not serving yet. */
const FIRST: ZookeeperWorkloadStatus = { phase: 'Pending', replicas: 3, readyReplicas: 0, conditions: ready('False') };

const subject = { apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: 'ZookeeperWorkload', namespace: 'prod', name: 'zk' };

describe('statusChanges', () => {
  it('announces nothing when nothing changed', () => {
    expect(statusChanges(STEADY, next({}))).toEqual([]);
  });

  it('announces nothing when the config could not be read this time', () => {
    expect(statusChanges(STEADY, next({}, undefined))).toEqual([]);
  });

  it.each<[string, Partial<ZookeeperWorkloadStatus>, CommittedMembership, Pick<StatusChange, 'type' | 'data' | 'kubernetes'>]>([
    [
      'a new leader',
      { leader: 'zk-2' },
      MEMBERSHIP,
      {
        type: 'LeaderChanged',
        data: { from: 'zk-0', to: 'zk-2' },
        kubernetes: { type: 'Normal', reason: 'LeaderChanged', action: 'Observed', note: 'leader is now zk-2 (was zk-0)' },
      },
    ],
    [
      'a committed reconfig',
      {},
      { configVersion: '300000002', members: [...MEMBERSHIP.members, { myid: 4, pod: 'zk-3', role: 'observer' }] },
      {
        type: 'MembershipChanged',
        data: {
          configVersion: '300000002',
          members: [...MEMBERSHIP.members, { myid: 4, pod: 'zk-3', role: 'observer' }],
        },
        kubernetes: {
          type: 'Normal',
          reason: 'MembershipChanged',
          action: 'Observed',
          note: 'committed config 300000002 (was 200000000) has 3 voters: zk-0, zk-1, zk-2, observers zk-3',
        },
      },
    ],
    [
      'fewer members ready',
      { readyReplicas: 2 },
      MEMBERSHIP,
      {
        type: 'ReadinessChanged',
        data: { ready: true, readyReplicas: 2, replicas: 3 },
        kubernetes: { type: 'Normal', reason: 'ReadinessChanged', action: 'Observed', note: 'ready: 2/3 members serving and synced' },
      },
    ],
    [
      'a new template revision',
      { updateRevision: 'zk-rev2' },
      MEMBERSHIP,
      {
        type: 'TemplateRevisionChanged',
        data: { from: 'zk-rev1', to: 'zk-rev2' },
        kubernetes: {
          type: 'Normal',
          reason: 'TemplateRevisionChanged',
          action: 'Observed',
          note: 'pods move to template revision zk-rev2 (was zk-rev1)',
        },
      },
    ],
  ])('announces %s, in a form the event contract accepts', (_fact, changes, membership, expected) => {
    const announced = statusChanges(STEADY, next(changes, membership));
    expect(announced).toEqual([expected]);
    for (const change of announced) {
      expect(() => createEvent({ ...change, source: 'workload-controller', subject })).not.toThrow();
    }
  });

  it('warns when the ensemble loses its leader and readiness together', () => {
    const announced = statusChanges(STEADY, next({ leader: undefined, readyReplicas: 1, conditions: ready('False') }));
    expect(announced.map((change) => [change.type, change.kubernetes.type, change.kubernetes.note])).toEqual([
      ['LeaderChanged', 'Warning', 'no leader (was zk-0)'],
      ['ReadinessChanged', 'Warning', 'not ready: 1/3 members serving and synced'],
    ]);
  });

  it('announces nothing of a new workload whose first status is not ready: it never was', () => {
    expect(statusChanges(undefined, { status: FIRST, membership: undefined })).toEqual([]);
    const oneReady = { status: { ...FIRST, readyReplicas: 1 }, membership: undefined };
    expect(statusChanges(FIRST, oneReady).map((change) => change.kubernetes.note)).toEqual(['not ready: 1/3 members serving and synced']);
  });

  it('announces the first leader, membership and readiness of a new ensemble, not the revision its pods start from', () => {
    expect(statusChanges(undefined, next({})).map((change) => change.kubernetes.note)).toEqual([
      'leader is now zk-0',
      'committed config 200000000 has 3 voters: zk-0, zk-1, zk-2',
      'ready: 3/3 members serving and synced',
    ]);
    expect(statusChanges(FIRST, { status: { ...FIRST, updateRevision: 'zk-rev1' }, membership: undefined })).toEqual([]);
  });
});
