// Builds member observations for tests the way ZooKeeper answers: the captured srvr/mntr text with a few values changed,
// read back by the real parsers, so a fixture cannot say what no ZooKeeper prints.
import { ZOOKEEPER_PORTS } from '@zk-oam/apis';
import { NotServingError } from '../four-letter-words/errors.js';
import { classifyAnswer } from '../four-letter-words/classify.js';
import { fixture } from '../four-letter-words/fixtures/index.js';
import { parseMntr } from '../four-letter-words/mntr.js';
import { parseSrvr } from '../four-letter-words/srvr.js';
import type { MemberObservation } from '../health/observation.js';
import { formatZxid, parseZxid, type Zxid } from '../zxid.js';

/** The Zab phase a peer is in, as the second half of mntr's `zk_peer_state` prints it. */
export type ZabPhase = 'discovery' | 'synchronization' | 'broadcast';

/** What the leader's mntr counts: every synced follower (voting or not), the non-voting ones among them, observers. */
export interface LeaderSyncCounts {
  followers: number;
  nonVotingFollowers?: number;
  observers?: number;
}

export type MemberAnswers =
  | { mode: 'leader'; zxid?: Zxid; phase?: ZabPhase; synced?: LeaderSyncCounts }
  | { mode: 'follower' | 'observer'; zxid?: Zxid; phase?: ZabPhase };

/** The zxid every answer carries unless a test says otherwise: the captured leader's. */
const DEFAULT_ZXID = parseZxid('0x100000000');

/** The captured leader's counts: a three-voter ensemble with both followers synced. */
const THREE_VOTERS_SYNCED: Required<LeaderSyncCounts> = { followers: 2, nonVotingFollowers: 0, observers: 0 };

/** Read once at import: simulations build many observations. */
const CAPTURED = {
  srvrLeader: fixture('srvr-leader'),
  srvrFollower: fixture('srvr-follower'),
  mntrLeader: fixture('mntr-leader'),
  mntrFollower: fixture('mntr-follower'),
  notServing: fixture('not-serving'),
} as const;

const PEER_STATE_PREFIX = { leader: 'leading', follower: 'following', observer: 'observing' } as const;

/** srvr as the member would print it; only the leader prints the proposal sizes line, as in the capture. */
export function srvrText(answers: MemberAnswers): string {
  const captured = answers.mode === 'leader' ? CAPTURED.srvrLeader : CAPTURED.srvrFollower;
  return withValues(captured, ': ', {
    Zxid: formatZxid(answers.zxid ?? DEFAULT_ZXID),
    Mode: answers.mode,
  });
}

/** mntr as the member would print it; only the leader prints the zk_synced_* counts, as in the capture. */
export function mntrText(answers: MemberAnswers): string {
  const peerState = `${PEER_STATE_PREFIX[answers.mode]} - ${answers.phase ?? 'broadcast'}`;
  if (answers.mode !== 'leader') {
    return withValues(CAPTURED.mntrFollower, '\t', { zk_server_state: answers.mode, zk_peer_state: peerState });
  }
  const synced = { ...THREE_VOTERS_SYNCED, ...answers.synced };
  return withValues(CAPTURED.mntrLeader, '\t', {
    zk_peer_state: peerState,
    zk_synced_followers: String(synced.followers),
    zk_synced_non_voting_followers: String(synced.nonVotingFollowers),
    zk_synced_observers: String(synced.observers),
    zk_learners: String(synced.followers + synced.observers),
  });
}

/** A member that answers srvr and mntr, parsed as the operator parses them. */
export function answeringMember(id: number, address: string, answers: MemberAnswers): MemberObservation {
  return { id, address, srvr: parseSrvr(srvrText(answers)), mntr: parseMntr(mntrText(answers)) };
}

/** A member that is up but refuses srvr with the captured "not currently serving requests" line. */
export function notServingMember(id: number, address: string): MemberObservation {
  const context = { host: address, port: ZOOKEEPER_PORTS.client, word: 'srvr' };
  try {
    classifyAnswer(context, CAPTURED.notServing);
  } catch (error) {
    if (error instanceof NotServingError) {
      return { id, address, error };
    }
    throw error;
  }
  throw new Error('the captured not-serving answer is no longer classified as a refusal');
}

/** Replaces the value of each named line; a key the capture does not print is a mistake in the test, not a new line. */
function withValues(text: string, separator: string, values: Record<string, string>): string {
  const lines = text.split('\n');
  for (const [key, value] of Object.entries(values)) {
    const at = lines.findIndex((line) => line.startsWith(`${key}${separator}`));
    if (at < 0) {
      throw new Error(`the captured answer has no "${key}" line`);
    }
    lines[at] = `${key}${separator}${value}`;
  }
  return lines.join('\n');
}
