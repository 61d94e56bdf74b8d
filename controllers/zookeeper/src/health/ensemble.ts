// The ensemble health model: from per-member observations and the committed config, who votes, who leads, who is synced.
import type { DynamicConfig } from '../dynamic-config/config.js';
import { NotServingError, NotWhitelistedError } from '../four-letter-words/errors.js';
import type { Zxid } from '../zxid.js';
import { describeFailure, memberLabel, type MemberObservation } from './observation.js';
import { quorumSize } from './quorum.js';

export type MemberRole = 'leader' | 'follower' | 'observer' | 'unknown';

export interface MemberStatus {
  id: number;
  address: string | undefined;
  role: MemberRole;
  /** A participant in the committed config. */
  voter: boolean;
  /**
   * Its server answered, if only to refuse the word (not serving while it elects or syncs, or not whitelisted): it
   * runs. False when nothing answered (stopped, crashed, unreachable, not observed).
   */
  running: boolean;
  serving: boolean;
  /** Serving and in the broadcast phase (synced with the leader); the leader is synced by definition. */
  synced: boolean;
  zxid: Zxid | undefined;
  /** Why the member is not serving, in words. */
  problem: string | undefined;
}

export type Health = { ok: true } | { ok: false; reason: string; member?: number };

export interface EnsembleAssessment {
  members: MemberStatus[];
  voters: number[];
  /** Observers of the committed config and running members it does not list (joiners, leftovers). */
  nonVoting: number[];
  /** Set only when exactly one member leads. */
  leader: number | undefined;
  quorumSize: number;
  syncedVoters: number;
  /** A majority of voters is serving: the ensemble accepts writes. */
  hasQuorum: boolean;
  health: Health;
}

export function assessEnsemble(config: DynamicConfig, observations: readonly MemberObservation[]): EnsembleAssessment {
  const voters = config.servers.filter((server) => server.role === 'participant').map((server) => server.id);
  const ids = [...new Set([...config.servers.map((server) => server.id), ...observations.map((seen) => seen.id)])].sort(
    (a, b) => a - b,
  );
  const members = ids.map((id) =>
    memberStatus(
      id,
      voters.includes(id),
      observations.find((seen) => seen.id === id),
      config.servers.find((server) => server.id === id)?.host,
    ),
  );
  const leaders = members.filter((member) => member.role === 'leader').map((member) => member.id);
  const votingMembers = members.filter((member) => member.voter);
  const syncedVoters = votingMembers.filter((member) => member.synced).length;
  const servingVoters = votingMembers.filter((member) => member.serving).length;
  const assessment = {
    members,
    voters,
    nonVoting: members.filter((member) => !member.voter).map((member) => member.id),
    leader: leaders.length === 1 ? leaders[0] : undefined,
    quorumSize: quorumSize(voters.length),
    syncedVoters,
    hasQuorum: voters.length > 0 && servingVoters >= quorumSize(voters.length),
  };
  const configuredObservers = config.servers.filter((server) => server.role === 'observer').map((server) => server.id);
  return { ...assessment, health: judgeHealth(assessment, { leaders, configuredObservers, observations }) };
}

function memberStatus(
  id: number,
  voter: boolean,
  observation: MemberObservation | undefined,
  configuredHost: string | undefined,
): MemberStatus {
  const address = observation?.address ?? configuredHost;
  const srvr = observation?.srvr;
  if (srvr === undefined) {
    return { id, address, role: 'unknown', voter, running: refusedInWords(observation), serving: false, synced: false, zxid: undefined, problem: describeFailure(observation) };
  }
  const role: MemberRole = srvr.mode === 'leader' || srvr.mode === 'follower' || srvr.mode === 'observer' ? srvr.mode : 'unknown';
  const broadcasting = observation?.mntr?.broadcasting ?? true;
  return {
    id,
    address,
    role,
    voter,
    running: true,
    serving: true,
    synced: role === 'leader' || ((role === 'follower' || role === 'observer') && broadcasting),
    zxid: srvr.zxid,
    problem: undefined,
  };
}

/** A refusal in words comes from a running server; silence may not. */
function refusedInWords(observation: MemberObservation | undefined): boolean {
  const error = observation?.error;
  return error instanceof NotServingError || error instanceof NotWhitelistedError;
}

/** Checks in the order a person would: someone down, then leadership, then sync. Joiners outside the config do not count. */
function judgeHealth(
  assessment: Omit<EnsembleAssessment, 'health'>,
  seen: { leaders: number[]; configuredObservers: number[]; observations: readonly MemberObservation[] },
): Health {
  const { leaders, configuredObservers, observations } = seen;
  const down = assessment.members.find(
    (member) => !member.serving && (member.voter || configuredObservers.includes(member.id)),
  );
  if (down !== undefined) {
    return { ok: false, member: down.id, reason: `${memberLabel(down)} ${down.problem ?? 'is not serving requests'}` };
  }
  if (leaders.length === 0) {
    return { ok: false, reason: 'no leader' };
  }
  if (leaders.length > 1) {
    return { ok: false, reason: `${leaders.length} members claim to lead: ${leaders.join(', ')}` };
  }
  const leader = assessment.members.find((member) => member.id === assessment.leader);
  if (leader !== undefined && !leader.voter) {
    return { ok: false, member: leader.id, reason: `${memberLabel(leader)} leads but is not a voter of the committed config` };
  }
  const observerVoter = assessment.members.find((member) => member.voter && member.role === 'observer');
  if (observerVoter !== undefined) {
    return { ok: false, member: observerVoter.id, reason: `${memberLabel(observerVoter)} is a voter but runs as an observer` };
  }
  const votersSyncedByLeader = leaderSyncedVoters(observations, assessment.leader);
  const synced = Math.min(assessment.syncedVoters, votersSyncedByLeader ?? assessment.syncedVoters);
  if (synced < assessment.voters.length) {
    const lagging = assessment.members.find((member) => member.voter && !member.synced);
    return {
      ok: false,
      ...(lagging === undefined ? {} : { member: lagging.id }),
      reason: `${synced} of ${assessment.voters.length} voters synced`,
    };
  }
  return { ok: true };
}

/** The leader's own count: synced followers minus the non-voting ones, plus itself. */
function leaderSyncedVoters(observations: readonly MemberObservation[], leader: number | undefined): number | undefined {
  const mntr = observations.find((seen) => seen.id === leader)?.mntr;
  if (mntr?.syncedFollowers === undefined) {
    return undefined;
  }
  return mntr.syncedFollowers - (mntr.syncedNonVotingFollowers ?? 0) + 1;
}
