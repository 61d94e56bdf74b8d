import { parseResource, ZOOKEEPER_ROLLING, ZOOKEEPER_SCALE, ZOOKEEPER_WORKLOAD, zookeeperRollingSchema, zookeeperScaleSchema, zookeeperWorkloadSchema } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { ensembleDetail, ensembleSummary } from './ensemble.js';
import { recentEvents, RECENT_EVENTS } from './events.js';
import { traitsByWorkload, workloadKey } from './traits.js';

const running = parseResource(
  zookeeperWorkloadSchema,
  {
    apiVersion: ZOOKEEPER_WORKLOAD.apiVersion,
    kind: 'ZookeeperWorkload',
    metadata: { name: 'zk', namespace: 'team-a', generation: 3, resourceVersion: '42', creationTimestamp: '2026-11-25T10:00:00Z' },
    spec: { replicas: 3 },
    status: {
      observedGeneration: 3,
      phase: 'Running',
      replicas: 3,
      readyReplicas: 2,
      leader: 'zk-1',
      configVersion: '100000003',
      clientEndpoint: { service: 'zk-client', connectString: 'zk-client.team-a:2181' },
      members: [
        { pod: 'zk-0', myid: 1, role: 'follower', synced: true, voting: true },
        { pod: 'zk-1', myid: 2, role: 'leader', synced: true, voting: true },
        { pod: 'zk-2', myid: 3, role: 'unknown', synced: false, voting: true },
      ],
      conditions: [{ type: 'Ready', status: 'False', reason: 'MembersNotReady', message: '1 of 3 not synced', lastTransitionTime: '2026-11-25T10:05:00Z' }],
    },
  },
  'workload',
);

const fresh = parseResource(
  zookeeperWorkloadSchema,
  { apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: 'ZookeeperWorkload', metadata: { name: 'new', namespace: 'team-a' }, spec: {} },
  'workload',
);

const scale = parseResource(
  zookeeperScaleSchema,
  {
    apiVersion: ZOOKEEPER_SCALE.apiVersion,
    kind: 'ZookeeperScale',
    metadata: { name: 'zk-scale', namespace: 'team-a' },
    spec: { workloadRef: { name: 'zk' }, replicas: 5 },
    status: { phase: 'ScalingUp', replicas: 3, targetReplicas: 5 },
  },
  'scale',
);
const rolling = parseResource(
  zookeeperRollingSchema,
  { apiVersion: ZOOKEEPER_ROLLING.apiVersion, kind: 'ZookeeperRolling', metadata: { name: 'zk', namespace: 'team-a' }, spec: { workloadRef: { name: 'zk' } } },
  'rolling',
);
const elsewhere = parseResource(
  zookeeperRollingSchema,
  { apiVersion: ZOOKEEPER_ROLLING.apiVersion, kind: 'ZookeeperRolling', metadata: { name: 'zk', namespace: 'team-b' }, spec: { workloadRef: { name: 'zk' } } },
  'rolling',
);

describe('traitsByWorkload', () => {
  it('groups traits under the workload their workloadRef names, in their own namespace, scale traits first', () => {
    const grouped = traitsByWorkload([scale], [rolling, elsewhere]);
    expect(grouped.get(workloadKey('team-a', 'zk'))?.map((trait) => [trait.kind, trait.name, trait.phase])).toStrictEqual([
      ['ZookeeperScale', 'zk-scale', 'ScalingUp'],
      ['ZookeeperRolling', 'zk', undefined],
    ]);
    expect(grouped.get(workloadKey('team-b', 'zk'))).toHaveLength(1);
    expect(grouped.get(workloadKey('team-a', 'other'))).toBeUndefined();
  });
});

describe('ensembleSummary', () => {
  it('shows phase, desired and ready members, leader and the traits by kind, name and phase', () => {
    const traits = traitsByWorkload([scale], [rolling]).get(workloadKey('team-a', 'zk')) ?? [];
    expect(ensembleSummary('east', running, traits)).toStrictEqual({
      cluster: 'east',
      namespace: 'team-a',
      name: 'zk',
      phase: 'Running',
      members: { desired: 3, ready: 2 },
      leader: 'zk-1',
      traits: [
        { kind: 'ZookeeperScale', name: 'zk-scale', phase: 'ScalingUp' },
        { kind: 'ZookeeperRolling', name: 'zk', phase: undefined },
      ],
      createdAt: '2026-11-25T10:00:00Z',
    });
  });

  it('shows a workload without status as Pending with no ready member and no leader, at its defaulted size', () => {
    const summary = ensembleSummary('east', fresh, []);
    expect([summary.phase, summary.members, summary.leader]).toStrictEqual(['Pending', { desired: 3, ready: 0 }, undefined]);
  });
});

describe('ensembleDetail', () => {
  it('carries members with role, synced and voting, conditions, the committed config, traits with spec and status, and Events', () => {
    const traits = traitsByWorkload([scale], []).get(workloadKey('team-a', 'zk')) ?? [];
    const events = recentEvents([{ type: 'Normal', reason: 'Created', message: 'rendered', lastTimestamp: '2026-11-25T10:01:00Z' }]);
    const detail = ensembleDetail('east', running, traits, events);
    expect(detail.memberStatus.map((member) => [member.pod, member.role, member.synced])).toStrictEqual([
      ['zk-0', 'follower', true],
      ['zk-1', 'leader', true],
      ['zk-2', 'unknown', false],
    ]);
    expect(detail.conditions.map((condition) => condition.reason)).toStrictEqual(['MembersNotReady']);
    expect(detail.committedConfig).toStrictEqual({ version: '100000003', members: 3, connectString: 'zk-client.team-a:2181' });
    expect(detail.traits[0]?.spec).toMatchObject({ replicas: 5 });
    expect(detail.traits[0]?.status).toMatchObject({ targetReplicas: 5 });
    expect([detail.generation, detail.observedGeneration, detail.resourceVersion]).toStrictEqual([3, 3, '42']);
    expect(detail.events.map((event) => event.reason)).toStrictEqual(['Created']);
  });

  it('shows a workload without status with no member, condition or committed config', () => {
    const detail = ensembleDetail('east', fresh, [], []);
    expect([detail.memberStatus, detail.conditions, detail.committedConfig.version]).toStrictEqual([[], [], undefined]);
  });
});

describe('recentEvents', () => {
  it('orders Events newest first by whichever time their writer set, counts series, names the reporter and the object', () => {
    const views = recentEvents([
      { type: 'Normal', reason: 'Old', message: 'a', lastTimestamp: '2026-11-25T09:00:00Z', count: 2, source: { component: 'kubelet' }, involvedObject: { kind: 'ZookeeperRolling', name: 'zk' } },
      { type: 'Warning', reason: 'New', message: 'b', eventTime: '2026-11-25T11:00:00.000000Z', reportingComponent: 'zookeeper.zkoam.dev/scale', series: { count: 4, lastObservedTime: '2026-11-25T11:30:00.000000Z' } },
      { reason: 'Untimed', message: 'c' },
    ]);
    expect(views.map((view) => [view.reason, view.count, view.reporter, view.type, view.regarding])).toStrictEqual([
      ['New', 4, 'zookeeper.zkoam.dev/scale', 'Warning', undefined],
      ['Old', 2, 'kubelet', 'Normal', { kind: 'ZookeeperRolling', name: 'zk' }],
      ['Untimed', 1, undefined, 'Normal', undefined],
    ]);
  });

  it(`keeps the newest ${String(RECENT_EVENTS)}`, () => {
    const many = Array.from({ length: RECENT_EVENTS + 5 }, (_, index) => ({
      reason: `R${String(index)}`,
      lastTimestamp: `2026-11-25T10:${String(index).padStart(2, '0')}:00Z`,
    }));
    const views = recentEvents(many);
    expect(views).toHaveLength(RECENT_EVENTS);
    expect(views[0]?.reason).toBe(`R${String(RECENT_EVENTS + 4)}`);
  });
});
