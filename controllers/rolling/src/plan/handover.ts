// The leader handover: the leader, due last, leaves the voters by reconfig (naming its successor, so no election runs),
// restarts as a non-voter, and is reconfigured back in once synced. The trait's status records the handover before
// the leader leaves, so every step below is decided from that record and what ZooKeeper says now.
import { kubernetesTime, type ZookeeperRollingStatus } from '@zk-oam/apis';
import { parseServerLine, type CommittedConfig, type ServerEntry } from '@zk-oam/zookeeper';
import type { RollingPlanInput } from './input.js';
import { runsUnsynced, type RollMember } from './members.js';
import type { HandoverRecord, PodToDelete, RollingStep } from './step.js';
import { waitFor, waitStartedAt } from './wait-clock.js';

/** The leader's batch becomes a handover when the spec asks for it. */
export function handoverOf(input: RollingPlanInput, leader: PodToDelete): Extract<RollingStep, { kind: 'HandOverLeadership' }> | undefined {
  const { ensemble, committed } = input;
  if (input.spec.leaderHandover !== 'Reconfigure' || committed === undefined) return undefined;
  const server = committed.servers.find((entry) => entry.id === ensemble.leader && entry.role === 'participant');
  return server === undefined ? undefined : { kind: 'HandOverLeadership', pod: leader, server, fromVersion: committed.version };
}

/** The record a handover step leaves in the status. */
export function recordOf(step: Extract<RollingStep, { kind: 'HandOverLeadership' }>, now: Date): HandoverRecord {
  return { pod: step.pod.name, server: step.server, startedAt: now };
}

/** The stored record, when the status holds a readable one. */
export function storedHandover(status: Pick<ZookeeperRollingStatus, 'handover'> | undefined): HandoverRecord | undefined {
  const stored = status?.handover;
  if (stored === undefined) return undefined;
  const server = parseStoredLine(stored.server);
  return server === undefined ? undefined : { pod: stored.pod, server, startedAt: new Date(stored.startedAt) };
}

/**
 * The next step of a recorded handover, or undefined once the member is a voter again (restored, or the reconfig out
 * never happened): then the roll plans as usual and the record is dropped.
 */
export function continueHandover(input: RollingPlanInput, members: readonly RollMember[], record: HandoverRecord): RollingStep | undefined {
  const { committed, ensemble } = input;
  const member = members.find((candidate) => candidate.podName === record.pod);
  if (member === undefined) return undefined;
  if (committed === undefined) {
    return waitFor(input, 'EnsembleUnhealthy', `handing over ${record.pod}: the committed configuration cannot be read`);
  }
  if (isVoter(committed, record.server.id)) return undefined;
  const { resyncing, down: othersDown } = othersNotUp(input, members, member, record);
  // Back at the target and synced; or, when another member failed, still the old process but running synced: it is
  // not left out while the others recover, and restarts later as a follower.
  const back = member.state.up && (!member.needsRestart || othersDown.length > 0);
  if (back && ensemble.leader !== undefined && ensemble.hasQuorum) {
    return { kind: 'RestoreVoter', pod: record.pod, server: { ...record.server, role: 'participant' }, fromVersion: committed.version };
  }
  if (othersDown.length > 0) return interrupted(input, record, othersDown);
  if (member.needsRestart && resyncing.length > 0) return awaitResync(input, resyncing, record);
  if (member.needsRestart) return restartDeparted(input, member, record);
  if (!member.state.up) return waitFor(input, member.state.reason, `handing over ${record.pod}: ${member.state.message}`, member.state.since);
  return waitFor(input, 'EnsembleUnhealthy', `handing over ${record.pod}: it is synced, but the voters have no leader and quorum to take it back`);
}

/**
 * The other members that are not up: those syncing again with the successor, and those down. After the leader change
 * every follower syncs again, and ZooKeeper gives it initLimit ticks to do so; the window here starts at the record,
 * written right before the reconfig out. Within it, a follower that runs and is only not synced yet is no failure:
 * taken for one, it would send the former leader back into the voters on its old process, to be restarted in another
 * round (or never, when the trait is deleted meanwhile).
 */
function othersNotUp(
  input: RollingPlanInput,
  members: readonly RollMember[],
  departed: RollMember,
  record: HandoverRecord,
): { resyncing: RollMember[]; down: RollMember[] } {
  const notUp = members.filter((candidate) => candidate !== departed && !candidate.state.up);
  const settling = input.now.getTime() < resyncDeadline(input, record).getTime();
  const resyncing = settling ? notUp.filter((candidate) => runsUnsynced(candidate, input.ensemble)) : [];
  return { resyncing, down: notUp.filter((candidate) => !resyncing.includes(candidate)) };
}

function resyncDeadline(input: RollingPlanInput, record: HandoverRecord): Date {
  const { initLimit, tickTime } = input.zooConfig;
  return new Date(record.startedAt.getTime() + initLimit * tickTime);
}

function awaitResync(input: RollingPlanInput, resyncing: readonly RollMember[], record: HandoverRecord): RollingStep {
  const names = resyncing.map((candidate) => candidate.podName).join(', ');
  const message =
    `${record.pod} left the voters to hand leadership over; waiting for ${names} to sync with the successor ` +
    `(their servers run; ZooKeeper gives them until ${kubernetesTime(resyncDeadline(input, record))})`;
  return waitFor(input, 'LeadershipMoving', message);
}

/** The former leader is still the old pod: it restarts once another voter leads. */
function restartDeparted(input: RollingPlanInput, member: RollMember, record: HandoverRecord): RollingStep {
  const { ensemble } = input;
  const successor = ensemble.leader;
  if (successor === undefined || successor === record.server.id || !ensemble.health.ok || member.pod === undefined) {
    const why = ensemble.health.ok ? 'no other voter leads yet' : ensemble.health.reason;
    return waitFor(input, 'LeadershipMoving', `${record.pod} left the voters to hand leadership over; waiting for its successor (${why})`);
  }
  return { kind: 'DeletePods', pods: [{ name: member.podName, uid: member.pod.uid, leader: true }] };
}

/** A member failed while the former leader is out: a person should know at once, and the handover finishes when it can. */
function interrupted(input: RollingPlanInput, record: HandoverRecord, down: readonly RollMember[]): RollingStep {
  const names = down.map((candidate) => candidate.podName).join(', ');
  const first = down[0]?.state;
  const detail = first === undefined || first.up ? '' : `: ${first.message}`;
  const message =
    `the leader handover of ${record.pod} is interrupted: ${names} down${detail}; ${record.pod} goes back into the voters ` +
    'as soon as it runs synced and the voters have a leader and quorum';
  const since = waitStartedAt('HandoverInterrupted', undefined, input.status, input.now);
  return { kind: 'Blocked', reason: 'HandoverInterrupted', message, since };
}

function isVoter(committed: CommittedConfig, id: number): boolean {
  return committed.servers.some((entry) => entry.id === id && entry.role === 'participant');
}

function parseStoredLine(line: string): ServerEntry | undefined {
  try {
    return parseServerLine(line);
  } catch {
    return undefined;
  }
}
