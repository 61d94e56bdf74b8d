// Single decisions of the planner, one observed state each: what goes next, what it waits for, when it gives up.
import { kubernetesTime } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import type { PodView, RollingPlanInput } from './input.js';
import { planRollingStep } from './plan.js';
import { applyStep, crash, newCluster, observe, recordHandover, tick, withSpec, withUpdateRevision, type SimulatedCluster } from './simulated-cluster.js';
import { waitingSince, waitingVerdict } from './wait-clock.js';

const outdated = (members: number, leaderOrdinal: number, spec: Partial<RollingPlanInput['spec']> = {}): SimulatedCluster =>
  withUpdateRevision(newCluster({ members, leaderOrdinal, spec }), 'zk-new');

const stepOf = (input: RollingPlanInput): ReturnType<typeof planRollingStep>['step'] => planRollingStep(input).step;

function deletedNames(input: RollingPlanInput): string[] {
  const step = stepOf(input);
  return step.kind === 'DeletePods' ? step.pods.map((pod) => `${pod.name}${pod.leader ? ' (leader)' : ''}`) : [step.kind];
}

function withPod(input: RollingPlanInput, name: string, change: (pod: PodView) => PodView | undefined): RollingPlanInput {
  return { ...input, pods: input.pods.flatMap((pod) => (pod.name === name ? [change(pod) ?? []].flat() : [pod])) };
}

describe('which pods go next', () => {
  it.each([
    ['3 members, leader zk-2', ['zk-1'], outdated(3, 2)],
    ['3 members, leader zk-0', ['zk-2'], outdated(3, 0)],
    ['5 members, maxUnavailable 2', ['zk-4', 'zk-2'], outdated(5, 3, { maxUnavailable: 2 })],
    ['5 members, maxUnavailable 5 (the quorum allows 2)', ['zk-4', 'zk-3'], outdated(5, 0, { maxUnavailable: 5 })],
    ['3 members, maxUnavailable 2 (the quorum allows 1)', ['zk-2'], outdated(3, 1, { maxUnavailable: 2 })],
    ['7 members, maxUnavailable 3', ['zk-5', 'zk-4', 'zk-3'], outdated(7, 6, { maxUnavailable: 3 })],
  ])('%s: %j', (_name, expected, cluster) => {
    expect(deletedNames(observe(cluster))).toEqual(expected);
  });

  it('restarts the leader alone once every follower is at the update revision, with its uid', () => {
    const input = observe(outdated(5, 2, { maxUnavailable: 2 }));
    const followersDone = { ...input, pods: input.pods.map((pod) => (pod.ordinal === 2 ? pod : { ...pod, revision: 'zk-new' })) };
    expect(stepOf(followersDone)).toEqual({ kind: 'DeletePods', pods: [{ name: 'zk-2', uid: 'uid-2', leader: true }] });
  });

  it('asks ZooKeeper who leads: a leader moved by an election goes last', () => {
    const cluster = outdated(3, 0);
    expect(deletedNames(observe({ ...cluster, leader: 3 }))).toEqual(['zk-1']);
    expect(deletedNames(observe({ ...cluster, leader: 2 }))).toEqual(['zk-2']);
  });

  it('leaves pods above spec.replicas to the StatefulSet', () => {
    const input = observe(outdated(3, 0));
    const scaledDown = { ...input, statefulSet: { ...input.statefulSet, replicas: 2 } };
    expect(planRollingStep(scaledDown).progress).toEqual({ updated: [], pending: ['zk-0', 'zk-1'] });
  });

  it.each([
    [1, 'only 0 of the 1 old voters stay up, 1 needed'],
    [2, 'only 1 of the 2 old voters stay up, 2 needed'],
  ])('refuses at once with %i members: no member can go down without losing the quorum', (members, reason) => {
    const cluster = outdated(members, 0);
    expect(stepOf(observe(cluster))).toEqual({
      kind: 'Blocked',
      reason: 'NoQuorumMargin',
      message: `restarting pod zk-${members - 1} now would leave ${reason}`,
      since: cluster.now,
    });
  });
});

describe('what it waits for before a deletion', () => {
  const healthy = observe(outdated(3, 2));
  const now = healthy.now;
  const ago = (seconds: number): Date => new Date(now.getTime() - seconds * 1000);

  it.each([
    [
      'a Terminating pod, dated by its deletion',
      withPod(healthy, 'zk-0', (pod) => ({ ...pod, deletion: { at: ago(-20), gracePeriodSeconds: 30 } })),
      { kind: 'Wait', reason: 'PodTerminating', message: 'pod zk-0 is terminating', since: ago(10) },
    ],
    [
      'a missing pod, dated now when nothing recorded the wait',
      withPod(healthy, 'zk-1', () => undefined),
      { kind: 'Wait', reason: 'PodMissing', message: 'pod zk-1 does not exist yet', since: now },
    ],
    [
      'a pod that is not ready, dated by its Ready condition',
      withPod(healthy, 'zk-1', (pod) => ({ ...pod, ready: false, readyChangedAt: ago(5), restartCount: 2 })),
      { kind: 'Wait', reason: 'PodNotReady', message: 'pod zk-1 is not ready (2 container restarts)', since: ago(5) },
    ],
    [
      'a pod not ready past the step timeout',
      withPod(healthy, 'zk-1', (pod) => ({ ...pod, ready: false, readyChangedAt: ago(600) })),
      {
        kind: 'Blocked',
        reason: 'PodNotReady',
        message: `pod zk-1 is not ready; waiting since ${kubernetesTime(ago(600))}, longer than the step timeout of 600s`,
        since: ago(600),
      },
    ],
    [
      'two members down, naming both',
      withPod(withPod(healthy, 'zk-0', () => undefined), 'zk-2', (pod) => ({ ...pod, ready: false, readyChangedAt: ago(1) })),
      { kind: 'Wait', reason: 'PodMissing', message: 'pod zk-0 does not exist yet (2 members down: zk-0, zk-2)', since: now },
    ],
    [
      'an unhealthy ensemble with every pod ready',
      { ...healthy, ensemble: { ...healthy.ensemble, health: { ok: false as const, reason: '2 members claim to lead: 1, 3' } } },
      { kind: 'Wait', reason: 'EnsembleUnhealthy', message: 'ensemble is not healthy: 2 members claim to lead: 1, 3', since: now },
    ],
    [
      'a StatefulSet without an update revision',
      { ...healthy, statefulSet: { ...healthy.statefulSet, updateRevision: undefined } },
      { kind: 'Wait', reason: 'NoUpdateRevision', message: 'StatefulSet zk has no update revision yet', since: now },
    ],
  ])('%s', (_name, input, expected) => {
    expect(stepOf(input)).toEqual(expected);
  });

  it('deletes no pod while the StatefulSet is not OnDelete yet (its own controller may be rolling it)', () => {
    const input = observe(outdated(5, 0));
    const rollingUpdate = { ...input, statefulSet: { ...input.statefulSet, onDelete: false } };
    expect(stepOf(rollingUpdate)).toEqual({
      kind: 'Wait',
      reason: 'StatefulSetNotOnDelete',
      message: 'StatefulSet zk does not use the OnDelete update strategy yet',
      since: input.now,
    });
    expect(planRollingStep(rollingUpdate).progress.pending).toHaveLength(5);
  });

  it('waits for a restarted member that is serving but still syncing', () => {
    const syncing = tick(tick(tick(applyStep(outdated(3, 2), stepOf(observe(outdated(3, 2)))))));
    expect(syncing.slots[1]?.stage).toBe('syncing');
    expect(stepOf(observe(syncing))).toMatchObject({
      kind: 'Wait',
      reason: 'MemberNotSynced',
      message: 'member 2 (127.0.1.2) of pod zk-1 is not synced with the leader',
    });
  });

  it('dates a wait pods cannot date by the stored wait of the same reason, and only that reason', () => {
    const missing = withPod(healthy, 'zk-1', () => undefined);
    const waiting = stepOf(missing);
    expect(waiting.kind).toBe('Wait');
    // The condition has been True since an earlier wait: its lastTransitionTime does not date this one.
    const condition = waiting.kind === 'Wait' ? { ...waitingVerdict(waiting), lastTransitionTime: '2026-01-01T00:00:00Z' } : undefined;
    const stored = { conditions: condition === undefined ? [] : [condition], waitingSince: waiting.kind === 'Wait' ? waitingSince(waiting) : undefined };
    const later = { ...missing, status: stored, now: new Date(now.getTime() + 601_000) };
    expect(stepOf(later)).toMatchObject({ kind: 'Blocked', reason: 'PodMissing', since: now });
    const otherReason = condition === undefined ? [] : [{ ...condition, reason: 'EnsembleUnhealthy' }];
    expect(stepOf({ ...later, status: { ...stored, conditions: otherReason } })).toMatchObject({ kind: 'Wait', since: later.now });
  });

  it('dates a wait by the Waiting condition of a status written before waitingSince existed', () => {
    const missing = withPod(healthy, 'zk-1', () => undefined);
    const condition = { type: 'Waiting', status: 'True', reason: 'PodMissing', message: 'pod zk-1 does not exist yet', lastTransitionTime: now.toISOString() } as const;
    expect(stepOf({ ...missing, status: { conditions: [condition] }, now: new Date(now.getTime() + 601_000) })).toMatchObject({ kind: 'Blocked', since: now });
  });
});

describe('restart requests', () => {
  const base = newCluster({ members: 3, leaderOrdinal: 0, spec: { restartTrigger: 'nonce-1' } });

  it('records a new trigger first, rounded up to the whole second', () => {
    const input = { ...observe(base), now: new Date('2026-01-01T01:00:00.250Z') };
    expect(planRollingStep(input)).toEqual({
      step: { kind: 'RecordRestartRequest', trigger: 'nonce-1', at: new Date('2026-01-01T01:00:01.000Z') },
      progress: { updated: [], pending: [] },
    });
  });

  it('waits for the recorded second to pass before the first deletion', () => {
    const recorded = { ...base, status: { observedRestartTrigger: 'nonce-1', restartRequestedAt: new Date(base.now.getTime() + 500).toISOString() } };
    expect(stepOf(observe(recorded))).toMatchObject({ kind: 'Wait', reason: 'RestartRequestSettling' });
    expect(deletedNames(observe(tick(recorded, 1)))).toEqual(['zk-2']);
  });

  it.each([
    ['created before the request', -1, ['zk-0', 'zk-1', 'zk-2']],
    ['created in the same second as the request', 0, ['zk-0', 'zk-2']],
  ])('restarts pods %s', (_name, offsetSeconds, pending) => {
    const at = base.now;
    const recorded = { ...base, status: { observedRestartTrigger: 'nonce-1', restartRequestedAt: at.toISOString() } };
    const input = withPod(observe(recorded), 'zk-1', (pod) => ({ ...pod, createdAt: new Date(at.getTime() + offsetSeconds * 1000) }));
    expect(planRollingStep(input).progress.pending).toEqual(pending);
  });

  it.each([
    ['a trigger recorded without its time', { observedRestartTrigger: 'nonce-1' }, 'RecordRestartRequest'],
    ['a trigger removed from the spec', { observedRestartTrigger: 'nonce-0', restartRequestedAt: '2026-01-01T00:30:00.000Z' }, 'Done'],
  ])('treats %s', (_name, status, kind) => {
    const spec = kind === 'Done' ? { ...base.spec, restartTrigger: undefined } : base.spec;
    expect(stepOf({ ...observe(base), spec, status })).toMatchObject({ kind });
  });
});

describe('paused and completed', () => {
  it.each([
    ['work left and nothing in progress', outdated(3, 0, { paused: true }), { kind: 'Paused', pending: ['zk-0', 'zk-1', 'zk-2'] }],
    ['nothing left', withSpec(newCluster({ members: 3, leaderOrdinal: 0 }), { paused: true }), { kind: 'Done' }],
  ])('paused with %s', (_name, cluster, expected) => {
    expect(stepOf(observe(cluster))).toEqual(expected);
  });

  it('stays Paused rather than Blocked when a member that still needs a restart is down', () => {
    expect(stepOf(observe(crash(outdated(3, 0, { paused: true }), 1)))).toMatchObject({ kind: 'Paused' });
  });

  it('stays Done for a completed target when a member fails later, but waits for it before calling a roll done', () => {
    const crashed = crash(newCluster({ members: 3, leaderOrdinal: 0 }), 2);
    expect(stepOf(observe(crashed))).toMatchObject({ kind: 'Wait', reason: 'PodNotReady' });
    const completed = { ...crashed, status: { phase: 'Completed' as const, targetRevision: 'zk-old' } };
    expect(stepOf(observe(completed))).toEqual({ kind: 'Done' });
    expect(stepOf(observe(withUpdateRevision(completed, 'zk-new')))).toMatchObject({ kind: 'Wait', reason: 'PodNotReady' });
  });

  it('does not take an earlier completion for the end of a roll for a newer restart request', () => {
    const completed = { phase: 'Completed' as const, targetRevision: 'zk-old', completedAt: '2026-01-01T00:10:00.000Z' };
    const cluster = newCluster({ members: 3, leaderOrdinal: 0, spec: { restartTrigger: 'again' } });
    const request = { observedRestartTrigger: 'again', restartRequestedAt: '2026-01-01T00:20:00.000Z' };
    const leaderGoing = withPod(observe({ ...cluster, status: { ...completed, ...request } }), 'zk-0', (pod) => ({
      ...pod,
      deletion: { at: cluster.now, gracePeriodSeconds: 0 },
    }));
    const restarted = (pod: PodView): PodView => ({ ...pod, createdAt: new Date('2026-01-01T00:21:00.000Z') });
    const input = withPod(withPod(leaderGoing, 'zk-1', restarted), 'zk-2', restarted);
    expect(planRollingStep(input)).toMatchObject({ step: { kind: 'Wait', reason: 'PodTerminating' }, progress: { pending: [] } });
    expect(stepOf({ ...input, status: { ...completed, ...request, completedAt: '2026-01-01T00:30:00.000Z' } })).toEqual({ kind: 'Done' });
  });
});

describe('a handover under way: followers syncing again with the successor, or down', () => {
  /** 5 members with every follower restarted; the leader zk-2 has just handed over to zk-4, and zk-0, zk-1, zk-3 sync again. */
  function handedOver(): SimulatedCluster {
    const start = outdated(5, 2, { leaderHandover: 'Reconfigure' });
    const followersDone = {
      ...start,
      slots: start.slots.map((slot) => (slot.ordinal === 2 || slot.pod === undefined ? slot : { ...slot, pod: { ...slot.pod, revision: 'zk-new' } })),
    };
    const plan = planRollingStep(observe(followersDone));
    expect(plan.step).toMatchObject({ kind: 'HandOverLeadership', pod: { name: 'zk-2' } });
    return applyStep(recordHandover(followersDone, plan.handover), plan.step);
  }
  const later = (input: RollingPlanInput, seconds: number): RollingPlanInput => ({ ...input, now: new Date(input.now.getTime() + seconds * 1000) });
  const restoreOldProcess = { kind: 'RestoreVoter', pod: 'zk-2', server: { id: 3, role: 'participant' } };

  it('waits for followers that run but are not synced yet, within initLimit x tickTime of the handover, naming them', () => {
    const cluster = handedOver();
    expect(cluster.slots.map((slot) => slot.stage)).toEqual(['resyncing', 'resyncing', 'up', 'resyncing', 'up']);
    expect(stepOf(observe(cluster))).toEqual({
      kind: 'Wait',
      reason: 'LeadershipMoving',
      message:
        'zk-2 left the voters to hand leadership over; waiting for zk-0, zk-1, zk-3 to sync with the successor ' +
        '(their servers run; ZooKeeper gives them until 2026-01-01T01:00:20Z)',
      since: cluster.now,
    });
    expect(stepOf(observe(tick(cluster)))).toMatchObject({ kind: 'Wait', message: expect.stringContaining('waiting for zk-1, zk-3 to sync') });
  });

  it('takes a follower still not synced once the window is over for down, as it does a failure: the former leader goes back in', () => {
    const input = observe(handedOver());
    expect(stepOf(later(input, 19))).toMatchObject({ kind: 'Wait', reason: 'LeadershipMoving' });
    expect(stepOf(later(input, 20))).toMatchObject(restoreOldProcess);
    expect(stepOf({ ...later(input, 20), zooConfig: { tickTime: 2000, initLimit: 15 } })).toMatchObject({ kind: 'Wait', reason: 'LeadershipMoving' });
  });

  it('does not wait for a follower whose pod is not ready or whose server does not answer: the handover is interrupted as before', () => {
    const cluster = handedOver();
    expect(stepOf(observe(cluster))).toMatchObject({ kind: 'Wait', reason: 'LeadershipMoving' });
    expect(stepOf(observe(crash(cluster, 0)))).toMatchObject(restoreOldProcess);
    const input = observe(cluster);
    const silent = input.ensemble.members.map((member) =>
      member.id === 1 ? { ...member, role: 'unknown' as const, running: false, serving: false, problem: 'does not answer: connect ECONNREFUSED' } : member,
    );
    expect(stepOf({ ...input, ensemble: { ...input.ensemble, members: silent } })).toMatchObject(restoreOldProcess);
  });

  it('is Blocked at once by a follower down while the former leader restarts, naming only it, not those still syncing', () => {
    const cluster = handedOver();
    const restarting = applyStep(cluster, { kind: 'DeletePods', pods: [{ name: 'zk-2', uid: 'uid-2', leader: false }] });
    expect(stepOf(observe(restarting))).toMatchObject({ kind: 'Wait', reason: 'PodTerminating' });
    expect(stepOf(observe(crash(restarting, 0)))).toEqual({
      kind: 'Blocked',
      reason: 'HandoverInterrupted',
      message:
        'the leader handover of zk-2 is interrupted: zk-0 down: pod zk-0 is not ready (1 container restarts); zk-2 goes back into ' +
        'the voters as soon as it runs synced and the voters have a leader and quorum',
      since: cluster.now,
    });
  });
});
