// deriveStatus from observations: phase, members, conditions with reasons and messages a person reads.
import type { Condition, ZookeeperWorkloadStatus } from '@zk-oam/apis';
import { workloadStatusSchema } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { CA_ROTATION_ANNOTATION } from '../tls/ca-rotation.js';
import { QUORUM_TLS_ANNOTATION } from '../tls/quorum-steps.js';
import { deriveStatus, type DeriveStatusInput } from './derive-status.js';
import {
  EARLIER,
  NOW,
  THREE_VOTERS,
  committed,
  ensemble,
  follower,
  leader,
  notServing,
  observer,
  pod,
  server,
  statefulSet,
  workload,
} from './test-fixtures.js';

const RUNNING: ZookeeperWorkloadStatus = { phase: 'Running' };
const threePods = [pod(0), pod(1), pod(2)];

function derive(input: Partial<DeriveStatusInput> & { previous?: ZookeeperWorkloadStatus }): ZookeeperWorkloadStatus {
  const { previous, ...rest } = input;
  const status = deriveStatus({
    workload: workload(previous ?? RUNNING),
    statefulSet: statefulSet(3),
    pods: threePods,
    ensemble: ensemble([leader(1), follower(2), follower(3)], THREE_VOTERS),
    now: NOW,
    ...rest,
  }).status;
  expect(workloadStatusSchema.safeParse(JSON.parse(JSON.stringify(status))).success).toBe(true);
  return status;
}

function condition(status: ZookeeperWorkloadStatus, type: string): Pick<Condition, 'status' | 'reason' | 'message'> {
  const found = status.conditions?.find((candidate) => candidate.type === type);
  return { status: found?.status ?? 'Unknown', reason: found?.reason ?? '', message: found?.message ?? '' };
}

describe('deriveStatus', () => {
  it('describes a healthy three-member ensemble completely', () => {
    expect(derive({})).toEqual({
      observedGeneration: 4,
      phase: 'Running',
      replicas: 3,
      readyReplicas: 3,
      updatedReplicas: 3,
      selector: 'app.kubernetes.io/component=server,app.kubernetes.io/instance=zk,app.kubernetes.io/name=zookeeper',
      members: [
        { pod: 'zk-0', myid: 1, role: 'leader', synced: true, voting: true },
        { pod: 'zk-1', myid: 2, role: 'follower', synced: true, voting: true },
        { pod: 'zk-2', myid: 3, role: 'follower', synced: true, voting: true },
      ],
      leader: 'zk-0',
      configVersion: '200000000',
      currentRevision: 'zk-rev1',
      updateRevision: 'zk-rev1',
      quorumTls: 'Plain',
      clientEndpoint: { service: 'zk-client', connectString: 'zk-client.prod.svc:2181' },
      conditions: [
        { type: 'Ready', status: 'True', reason: 'QuorumHealthy', message: '3/3 members serving, leader zk-0', observedGeneration: 4, lastTransitionTime: '2026-11-22T05:00:00Z' },
        { type: 'Progressing', status: 'False', reason: 'UpToDate', message: '3 pods at revision zk-rev1, committed config has 3 voters', observedGeneration: 4, lastTransitionTime: '2026-11-22T05:00:00Z' },
        { type: 'Degraded', status: 'False', reason: 'Healthy', message: '3/3 members serving and synced, leader zk-0', observedGeneration: 4, lastTransitionTime: '2026-11-22T05:00:00Z' },
      ],
    });
  });

  it('keeps members sorted by myid whatever order they were observed in', () => {
    const status = derive({ ensemble: ensemble([follower(3), leader(1), follower(2)], THREE_VOTERS) });
    expect(status.members?.map((member) => member.pod)).toEqual(['zk-0', 'zk-1', 'zk-2']);
  });

  it('names the member that is down, stays Ready on the remaining quorum, and says Degraded', () => {
    const status = derive({
      ensemble: ensemble([leader(1, { followers: 1 }), notServing(2), follower(3)], THREE_VOTERS),
    });
    expect(status).toMatchObject({ phase: 'Degraded', readyReplicas: 2, replicas: 3, leader: 'zk-0' });
    expect(status.members?.[1]).toEqual({ pod: 'zk-1', myid: 2, role: 'unknown', synced: false, voting: true });
    expect(condition(status, 'Degraded')).toEqual({
      status: 'True',
      reason: 'MemberNotServing',
      message: 'zk-1 (myid 2, 127.64.3.2) is not serving requests',
    });
    expect(condition(status, 'Ready')).toEqual({ status: 'True', reason: 'QuorumHealthy', message: '2/3 members serving, leader zk-0' });
  });

  it.each([
    [
      'nobody leads',
      [follower(1), follower(2), follower(3)],
      { status: 'False', reason: 'NoLeader', message: 'no member leads' },
      { status: 'True', reason: 'NoLeader', message: 'no member leads' },
    ],
    [
      'two of three members are down',
      [notServing(1), notServing(2), follower(3)],
      {
        status: 'False',
        reason: 'NoQuorum',
        message:
          '1 of 3 voters serving, 2 needed: zk-0 (myid 1, 127.64.3.1) is not serving requests; zk-1 (myid 2, 127.64.3.2) is not serving requests',
      },
      {
        status: 'True',
        reason: 'MemberNotServing',
        message: 'zk-0 (myid 1, 127.64.3.1) is not serving requests; zk-1 (myid 2, 127.64.3.2) is not serving requests',
      },
    ],
  ])('fails when %s', (_case, members, ready, degraded) => {
    const status = derive({ ensemble: ensemble(members, THREE_VOTERS) });
    expect(status.phase).toBe('Failed');
    expect(status.leader).toBeUndefined();
    expect(condition(status, 'Ready')).toEqual(ready);
    expect(condition(status, 'Degraded')).toEqual(degraded);
  });

  it('names a follower that is still syncing', () => {
    const status = derive({
      ensemble: ensemble([leader(1, { followers: 1 }), follower(2), follower(3, 'synchronization')], THREE_VOTERS),
    });
    expect(condition(status, 'Degraded')).toEqual({ status: 'True', reason: 'NotSynced', message: 'zk-2 is not synced with the leader' });
  });

  it('calls a non-voting joiner Scaling, not Degraded', () => {
    const status = derive({
      statefulSet: statefulSet(4),
      pods: [...threePods, pod(3)],
      ensemble: ensemble([leader(1, { followers: 3, nonVotingFollowers: 1 }), follower(2), follower(3), follower(4)], THREE_VOTERS),
    });
    expect(status).toMatchObject({ phase: 'Running', replicas: 3, readyReplicas: 3 });
    expect(status.members?.map((member) => [member.pod, member.voting])).toEqual([
      ['zk-0', true],
      ['zk-1', true],
      ['zk-2', true],
      ['zk-3', false],
    ]);
    expect(condition(status, 'Progressing')).toEqual({
      status: 'True',
      reason: 'Scaling',
      message: 'committed config has 3 voters, StatefulSet has 4 pods; zk-3 (myid 4, 127.64.3.4) runs as a non-voting follower',
    });
    expect(condition(status, 'Degraded').status).toBe('False');
  });

  it('calls a StatefulSet size the committed voters do not explain a ConfigMismatch', () => {
    const status = derive({
      statefulSet: statefulSet(4),
      pods: [...threePods, pod(3)],
      ensemble: ensemble(
        [leader(1), follower(2), follower(3), observer(4)],
        committed([server(1), server(2), server(3), server(4, 'observer')]),
      ),
    });
    expect(status.phase).toBe('Degraded');
    expect(condition(status, 'Degraded')).toEqual({
      status: 'True',
      reason: 'ConfigMismatch',
      message: 'committed config has 3 voters, StatefulSet has 4 pods',
    });
  });

  it('reports a rolling update with how many pods are on the new revision', () => {
    const status = derive({
      statefulSet: statefulSet(3, { current: 'zk-rev1', update: 'zk-rev2' }),
      pods: [pod(0, 'zk-rev2'), pod(1, 'zk-rev2'), pod(2, 'zk-rev1')],
    });
    expect(status).toMatchObject({ phase: 'Running', currentRevision: 'zk-rev1', updateRevision: 'zk-rev2' });
    expect(condition(status, 'Progressing')).toEqual({ status: 'True', reason: 'RollingOut', message: '2 of 3 pods updated to revision zk-rev2' });
  });

  it('names the step of a move to TLS while members restart into it, and the step in status.quorumTls', () => {
    const rolling = statefulSet(3, { current: 'zk-rev1', update: 'zk-rev2' });
    const status = derive({
      statefulSet: { ...rolling, metadata: { ...rolling.metadata, annotations: { [QUORUM_TLS_ANNOTATION]: 'TlsAcceptingPlain' } } },
      pods: [pod(0, 'zk-rev2'), pod(1, 'zk-rev1'), pod(2, 'zk-rev1')],
    });
    expect(status.quorumTls).toBe('TlsAcceptingPlain');
    expect(condition(status, 'Progressing')).toEqual({
      status: 'True',
      reason: 'MovingToTls',
      message:
        'moving member-to-member traffic to TLS, step 2 of 3 (TlsAcceptingPlain: members connect to each other with TLS and still accept plain text): ' +
        '1 of 3 pods restarted into it',
    });
  });

  it('names the step of a CA rotation while members restart into it', () => {
    const rolling = statefulSet(3, { current: 'zk-rev1', update: 'zk-rev2' });
    const status = derive({
      statefulSet: { ...rolling, metadata: { ...rolling.metadata, annotations: { [CA_ROTATION_ANNOTATION]: '1' } } },
      pods: [pod(0, 'zk-rev2'), pod(1, 'zk-rev1'), pod(2, 'zk-rev1')],
    });
    expect(condition(status, 'Progressing')).toEqual({
      status: 'True',
      reason: 'RotatingCa',
      message: 'rotating the CA that signs the member certificate, step 1 of 3 (members trust the old and the new CA): 1 of 3 pods restarted into it',
    });
  });

  it('is Creating while the StatefulSet has no pods yet', () => {
    const status = derive({ previous: {}, pods: [], ensemble: undefined });
    expect(status).toMatchObject({ phase: 'Creating', replicas: 0, readyReplicas: 0, members: [] });
    expect(condition(status, 'Progressing')).toEqual({ status: 'True', reason: 'Creating', message: 'creating the ensemble: 0 of 3 pods, 0/0 members serving' });
    expect(condition(status, 'Ready')).toMatchObject({ status: 'False', reason: 'Creating' });
    expect(condition(status, 'Degraded')).toMatchObject({ status: 'False', reason: 'Creating' });
  });

  it('does not call a member still starting during creation Degraded', () => {
    const status = derive({ previous: { phase: 'Creating' }, ensemble: ensemble([leader(1, { followers: 1 }), follower(2), notServing(3)], THREE_VOTERS) });
    expect(status.phase).toBe('Creating');
    expect(condition(status, 'Progressing').message).toBe(
      'creating the ensemble: 3 of 3 pods, 2/3 members serving; zk-2 (myid 3, 127.64.3.3) is not serving requests',
    );
    expect(condition(status, 'Degraded').status).toBe('False');
  });

  it('is Pending before anything is rendered', () => {
    const status = derive({ previous: {}, statefulSet: undefined, pods: [], ensemble: undefined });
    expect(status.phase).toBe('Pending');
    expect(condition(status, 'Ready')).toEqual({ status: 'False', reason: 'NotCreated', message: 'StatefulSet zk does not exist yet' });
    expect(condition(status, 'Progressing')).toEqual({ status: 'True', reason: 'Creating', message: 'StatefulSet zk does not exist yet' });
  });

  it('says Degraded when the StatefulSet of a running ensemble is missing', () => {
    const status = derive({ statefulSet: undefined });
    expect(status.phase).toBe('Degraded');
    expect(condition(status, 'Degraded')).toEqual({ status: 'True', reason: 'StatefulSetMissing', message: 'StatefulSet zk is missing' });
    expect(status.selector).toBe('app.kubernetes.io/component=server,app.kubernetes.io/instance=zk,app.kubernetes.io/name=zookeeper');
  });

  it('keeps the last committed version and size when the config cannot be read', () => {
    const derived = deriveStatus({
      workload: workload({ phase: 'Running', replicas: 3, configVersion: '100000000' }),
      statefulSet: statefulSet(3),
      pods: threePods,
      ensemble: ensemble([leader(1), follower(2), follower(3)], new Error('connection loss')),
      now: NOW,
    });
    expect(derived.membership).toBeUndefined();
    expect(derived.status).toMatchObject({ replicas: 3, configVersion: '100000000', phase: 'Running', leader: 'zk-0' });
  });
});

describe('condition lastTransitionTime', () => {
  const previous = (ready: Condition['status'], degraded: Condition['status']): ZookeeperWorkloadStatus => ({
    phase: 'Running',
    conditions: [
      { type: 'Ready', status: ready, reason: 'Old', message: 'old', observedGeneration: 3, lastTransitionTime: EARLIER },
      { type: 'Degraded', status: degraded, reason: 'Old', message: 'old', observedGeneration: 3, lastTransitionTime: EARLIER },
    ],
  });
  const timeOf = (status: ZookeeperWorkloadStatus, type: string): string | undefined =>
    status.conditions?.find((candidate) => candidate.type === type)?.lastTransitionTime;

  it.each([
    ['kept when the status stays (reason and message may change)', previous('True', 'False'), EARLIER, EARLIER],
    ['moved to now when the status flips', previous('False', 'True'), '2026-11-22T05:00:00Z', '2026-11-22T05:00:00Z'],
    ['set to now for a condition seen for the first time', { phase: 'Running' } as ZookeeperWorkloadStatus, '2026-11-22T05:00:00Z', '2026-11-22T05:00:00Z'],
  ])('is %s', (_case, before, ready, degraded) => {
    const status = derive({ previous: before });
    expect(timeOf(status, 'Ready')).toBe(ready);
    expect(timeOf(status, 'Degraded')).toBe(degraded);
    expect(status.conditions?.every((candidate) => candidate.observedGeneration === 4)).toBe(true);
  });
});
