// Test helper: a StatefulSet's pods and their ZooKeeper members as immutable values; steps and time move them along.
import { kubernetesTime, myidOfOrdinal } from '@zk-oam/apis';
import { setCondition } from '@zk-oam/runtime';
import { formatServerLine, zxidFromValue, type EnsembleAssessment } from '@zk-oam/zookeeper';
import { type PodView, type RollingPlanInput, type RollingPlanStatus } from './input.js';
import { assessSimulated, configOf, type SimulatedMemberState } from './simulated-ensemble.js';
import type { HandoverRecord, RollingStep } from './step.js';
import { WAITING_CONDITION_TYPE, waitingSince, waitingVerdict } from './wait-clock.js';

/**
 * A deleted pod walks terminating -> missing -> starting -> syncing -> up, one stage per tick; crashed stays put. After
 * a leader change every follower that was up is resyncing: its pod ready, its server running (it answers as a follower
 * in the synchronization phase), not synced with the new leader. They sync in parallel but finish apart, as under
 * load: one per tick, lowest ordinal first.
 */
export type Stage = 'up' | 'terminating' | 'missing' | 'starting' | 'syncing' | 'resyncing' | 'crashed';

export interface Slot {
  ordinal: number;
  pod: PodView | undefined;
  stage: Stage;
}

export interface Deletion {
  pod: string;
  uid: string;
  leader: boolean;
  at: Date;
}

export interface SimulatedCluster {
  now: Date;
  spec: RollingPlanInput['spec'];
  status: RollingPlanStatus;
  statefulSet: RollingPlanInput['statefulSet'];
  slots: Slot[];
  leader: number | undefined;
  /** Ids of the committed config's participants; a handover takes the leader out and puts it back. */
  voters: number[];
  configVersion: bigint;
  nextUid: number;
  deletions: Deletion[];
  elections: number;
  /** Leadership moved by reconfig, without an election. */
  handovers: number;
}

const NAME = 'zk';
const START = new Date('2026-01-01T00:00:00.000Z');
const GRACE_SECONDS = 30;
/** ZooKeeper's defaults: a follower has 20 s to sync with a new leader, ten of the simulation's ticks. */
const ZOO_CONFIG = { tickTime: 2000, initLimit: 10 };

export function newCluster(options: {
  members: number;
  leaderOrdinal: number;
  revision?: string;
  spec?: Partial<RollingPlanInput['spec']>;
}): SimulatedCluster {
  const revision = options.revision ?? 'zk-old';
  const slots = Array.from({ length: options.members }, (_unused, ordinal): Slot => ({
    ordinal,
    stage: 'up',
    pod: { ...newPod(ordinal, `uid-${ordinal}`, revision, START), ready: true },
  }));
  return {
    now: new Date(START.getTime() + 3_600_000),
    spec: { maxUnavailable: 1, paused: false, stepTimeoutSeconds: 600, leaderHandover: 'Election', ...options.spec },
    status: {},
    statefulSet: { name: NAME, updateRevision: revision, replicas: options.members, onDelete: true },
    slots,
    leader: myidOfOrdinal(options.leaderOrdinal),
    voters: slots.map((slot) => myidOfOrdinal(slot.ordinal)),
    configVersion: 0x100000000n,
    nextUid: options.members,
    deletions: [],
    elections: 0,
    handovers: 0,
  };
}

export function observe(cluster: SimulatedCluster): RollingPlanInput {
  return {
    spec: cluster.spec,
    status: cluster.status,
    statefulSet: cluster.statefulSet,
    pods: cluster.slots.flatMap((slot) => (slot.pod === undefined ? [] : [slot.pod])),
    ensemble: ensembleOf(cluster),
    committed: { ...configOf(cluster.voters), version: zxidFromValue(cluster.configVersion) },
    zooConfig: ZOO_CONFIG,
    now: cluster.now,
  };
}

export function ensembleOf(cluster: SimulatedCluster): EnsembleAssessment {
  return assessSimulated({
    voters: cluster.voters,
    members: cluster.slots.filter((slot) => slot.pod !== undefined).map((slot) => myidOfOrdinal(slot.ordinal)),
    leader: cluster.leader,
    state: (id) => memberState(cluster.slots.find((slot) => myidOfOrdinal(slot.ordinal) === id)?.stage),
  });
}

/** What the controller would do with the step: delete pods, or write status. */
export function applyStep(cluster: SimulatedCluster, step: RollingStep, only?: number): SimulatedCluster {
  const status = clearWaiting(cluster.status);
  switch (step.kind) {
    case 'DeletePods':
      return step.pods.slice(0, only).reduce((next, pod) => deletePod({ ...next, status }, pod.name, pod.uid), cluster);
    case 'RecordRestartRequest':
      return { ...cluster, status: { ...status, observedRestartTrigger: step.trigger, restartRequestedAt: kubernetesTime(step.at) } };
    case 'Done':
      return {
        ...cluster,
        status: { ...status, phase: 'Completed', targetRevision: cluster.statefulSet.updateRevision, completedAt: kubernetesTime(cluster.now) },
      };
    case 'Paused':
      return { ...cluster, status: { ...status, phase: 'Paused' } };
    case 'Wait':
    case 'Blocked': {
      const conditions = setCondition(cluster.status.conditions, waitingVerdict(step), { generation: undefined, now: cluster.now });
      return { ...cluster, status: { ...cluster.status, phase: step.kind === 'Wait' ? 'Rolling' : 'Blocked', conditions, waitingSince: waitingSince(step) } };
    }
    case 'HandOverLeadership':
      return handOver({ ...cluster, status }, step.server.id);
    case 'RestoreVoter':
      return reconfigured({ ...cluster, status }, [...cluster.voters, step.server.id].sort((a, b) => a - b));
  }
}

/** What the controller writes before it acts: the handover record of the plan, or none. */
export function recordHandover(cluster: SimulatedCluster, record: HandoverRecord | undefined): SimulatedCluster {
  const handover = record === undefined ? undefined : { pod: record.pod, server: formatServerLine(record.server), startedAt: kubernetesTime(record.startedAt) };
  return { ...cluster, status: { ...cluster.status, handover } };
}

/** The leader leaves the voters and names the synced voter with the highest id its successor: no election. */
function handOver(cluster: SimulatedCluster, leaving: number): SimulatedCluster {
  const voters = cluster.voters.filter((id) => id !== leaving);
  const successor = voters.filter((id) => cluster.slots.find((slot) => myidOfOrdinal(slot.ordinal) === id)?.stage === 'up').at(-1);
  return resyncFollowers({ ...reconfigured(cluster, voters), leader: successor, handovers: cluster.handovers + 1 });
}

function reconfigured(cluster: SimulatedCluster, voters: number[]): SimulatedCluster {
  return { ...cluster, voters, configVersion: cluster.configVersion + 1n };
}

/** Time passes: every pod on its way back moves one stage; the StatefulSet recreates missing pods at the update revision. */
export function tick(cluster: SimulatedCluster, seconds = 2): SimulatedCluster {
  const now = new Date(cluster.now.getTime() + seconds * 1000);
  let nextUid = cluster.nextUid;
  const resynced = cluster.slots.find((slot) => slot.stage === 'resyncing');
  const slots = cluster.slots.map((slot): Slot => {
    switch (slot.stage) {
      case 'terminating':
        return { ...slot, pod: undefined, stage: 'missing' };
      case 'missing':
        nextUid += 1;
        return { ...slot, stage: 'starting', pod: newPod(slot.ordinal, `uid-${nextUid}`, cluster.statefulSet.updateRevision ?? '', wholeSecond(now)) };
      case 'starting':
        return { ...slot, stage: 'syncing', pod: withReady(slot.pod, true, now) };
      case 'syncing':
        return { ...slot, stage: 'up' };
      case 'resyncing':
        return slot === resynced ? { ...slot, stage: 'up' } : slot;
      case 'up':
      case 'crashed':
        return slot;
    }
  });
  return electIfLeaderless({ ...cluster, now, slots, nextUid });
}

/** The member's process dies on its own: pod not ready until recover(). */
export function crash(cluster: SimulatedCluster, ordinal: number): SimulatedCluster {
  const slots = cluster.slots.map((slot): Slot => {
    if (slot.ordinal !== ordinal || slot.pod === undefined) {
      return slot;
    }
    const pod = withReady(slot.pod, false, cluster.now);
    return { ...slot, stage: 'crashed', pod: pod === undefined ? undefined : { ...pod, restartCount: pod.restartCount + 1 } };
  });
  return electIfLeaderless(dropLeaderIfDown({ ...cluster, slots }));
}

export function recover(cluster: SimulatedCluster, ordinal: number): SimulatedCluster {
  const slots = cluster.slots.map((slot): Slot =>
    slot.ordinal === ordinal ? { ...slot, stage: 'syncing', pod: withReady(slot.pod, true, cluster.now) } : slot,
  );
  return { ...cluster, slots };
}

export function withSpec(cluster: SimulatedCluster, spec: Partial<RollingPlanInput['spec']>): SimulatedCluster {
  return { ...cluster, spec: { ...cluster.spec, ...spec } };
}

export function withUpdateRevision(cluster: SimulatedCluster, updateRevision: string): SimulatedCluster {
  return { ...cluster, statefulSet: { ...cluster.statefulSet, updateRevision } };
}

/** Members whose pod went down or is on its way back; a follower resyncing after a leader change kept running. */
export function membersDown(cluster: SimulatedCluster): number {
  return cluster.slots.filter((slot) => slot.stage !== 'up' && slot.stage !== 'resyncing').length;
}

function deletePod(cluster: SimulatedCluster, name: string, uid: string): SimulatedCluster {
  const slot = cluster.slots.find((candidate) => candidate.pod?.name === name);
  if (slot?.pod === undefined || slot.pod.uid !== uid || slot.pod.deletion !== undefined) {
    throw new Error(`deleting ${name} (${uid}): no such live pod`);
  }
  const deletion = { at: new Date(cluster.now.getTime() + GRACE_SECONDS * 1000), gracePeriodSeconds: GRACE_SECONDS };
  const pod: PodView = { ...slot.pod, ready: false, readyChangedAt: cluster.now, deletion };
  const slots = cluster.slots.map((candidate): Slot => (candidate === slot ? { ...slot, pod, stage: 'terminating' } : candidate));
  const leader = cluster.leader === myidOfOrdinal(slot.ordinal);
  const deletions = [...cluster.deletions, { pod: name, uid, leader, at: cluster.now }];
  return electIfLeaderless(dropLeaderIfDown({ ...cluster, slots, deletions }));
}

function dropLeaderIfDown(cluster: SimulatedCluster): SimulatedCluster {
  const leaderSlot = cluster.slots.find((slot) => myidOfOrdinal(slot.ordinal) === cluster.leader);
  return leaderSlot === undefined || memberState(leaderSlot.stage) === 'synced' ? cluster : { ...cluster, leader: undefined };
}

/** With a majority of voters up, the highest synced id wins, as ZooKeeper's election favours it when zxids tie. */
function electIfLeaderless(cluster: SimulatedCluster): SimulatedCluster {
  if (cluster.leader !== undefined) {
    return cluster;
  }
  const voterSlots = cluster.slots.filter((slot) => cluster.voters.includes(myidOfOrdinal(slot.ordinal)));
  const up = voterSlots.filter((slot) => memberState(slot.stage) !== 'down');
  const winner = up.filter((slot) => slot.stage === 'up').at(-1);
  if (winner === undefined || up.length <= voterSlots.length / 2) {
    return cluster;
  }
  return resyncFollowers({ ...cluster, leader: myidOfOrdinal(winner.ordinal), elections: cluster.elections + 1 });
}

/** Every voter that was up and does not lead now syncs again with the new leader. */
function resyncFollowers(cluster: SimulatedCluster): SimulatedCluster {
  const following = (slot: Slot): boolean => {
    const id = myidOfOrdinal(slot.ordinal);
    return slot.stage === 'up' && id !== cluster.leader && cluster.voters.includes(id);
  };
  return { ...cluster, slots: cluster.slots.map((slot): Slot => (following(slot) ? { ...slot, stage: 'resyncing' } : slot)) };
}

function memberState(stage: Stage | undefined): SimulatedMemberState {
  return stage === 'up' ? 'synced' : stage === 'syncing' || stage === 'resyncing' ? 'syncing' : 'down';
}

function clearWaiting(status: RollingPlanStatus): RollingPlanStatus {
  return { ...status, conditions: (status.conditions ?? []).filter((condition) => condition.type !== WAITING_CONDITION_TYPE), waitingSince: undefined };
}

function newPod(ordinal: number, uid: string, revision: string, createdAt: Date): PodView {
  return {
    name: `${NAME}-${ordinal}`,
    uid,
    ordinal,
    revision,
    createdAt,
    ready: false,
    readyChangedAt: createdAt,
    deletion: undefined,
    restartCount: 0,
  };
}

/** creationTimestamp has whole seconds. */
function wholeSecond(time: Date): Date {
  return new Date(Math.floor(time.getTime() / 1000) * 1000);
}

function withReady(pod: PodView | undefined, ready: boolean, at: Date): PodView | undefined {
  return pod === undefined ? undefined : { ...pod, ready, readyChangedAt: at };
}
