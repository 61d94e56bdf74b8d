// Four-letter-word parsers on answers captured from a real ZooKeeper 3.8 ensemble.
import { describe, expect, it } from 'vitest';
import { classifyAnswer } from './classify.js';
import { parseConf } from './conf.js';
import { FourLetterWordParseError, NotServingError, NotWhitelistedError } from './errors.js';
import { fixture } from './fixtures/index.js';
import { parseMntr } from './mntr.js';
import { parseRuok } from './ruok.js';
import { parseSrvr } from './srvr.js';

describe('parseSrvr', () => {
  it('reads the leader answer, including the zxid epoch and counter', () => {
    expect(parseSrvr(fixture('srvr-leader'))).toEqual({
      version: '3.8.0-${mvngit.commit.id}, built on 2024-12-29 17:54 UTC',
      latency: { min: 0, avg: 0, max: 0 },
      received: 2,
      sent: 1,
      connections: 1,
      outstanding: 0,
      zxid: { value: 0x1_0000_0000n, epoch: 1, counter: 0 },
      mode: 'leader',
      nodeCount: 5,
    });
  });

  it('reads a follower', () => {
    expect(parseSrvr(fixture('srvr-follower'))).toMatchObject({ mode: 'follower', zxid: { value: 0n } });
  });

  it('shows a non-voting joiner as a follower: only the committed config tells it apart', () => {
    expect(parseSrvr(fixture('srvr-non-voting-follower'))).toMatchObject({
      mode: 'follower',
      zxid: { epoch: 1, counter: 6 },
      nodeCount: 6,
    });
  });

  it('names the missing field when the answer is cut short', () => {
    const truncated = fixture('srvr-leader').split('\n').slice(0, 6).join('\n');
    expect(() => parseSrvr(truncated)).toThrow(/missing "Zxid"/);
  });

  it('rejects an unknown mode', () => {
    const odd = fixture('srvr-follower').replace('Mode: follower', 'Mode: looking');
    expect(() => parseSrvr(odd)).toThrow(FourLetterWordParseError);
  });
});

describe('parseMntr', () => {
  it('reads the leader metrics the health model needs', () => {
    expect(parseMntr(fixture('mntr-leader'))).toMatchObject({
      serverState: 'leader',
      peerState: 'leading - broadcast',
      broadcasting: true,
      avgLatency: 0,
      outstandingRequests: 0,
      znodeCount: 5,
      syncedFollowers: 2,
      syncedNonVotingFollowers: 0,
      syncedObservers: 0,
      pendingSyncs: 0,
    });
  });

  it('counts a non-voting joiner among the synced followers and separately as non-voting', () => {
    expect(parseMntr(fixture('mntr-leader-with-non-voting-follower'))).toMatchObject({
      syncedFollowers: 3,
      syncedNonVotingFollowers: 1,
    });
  });

  it('reads a synced follower, which has no leader-only counters', () => {
    const follower = parseMntr(fixture('mntr-follower'));
    expect(follower).toMatchObject({
      serverState: 'follower',
      peerState: 'following - broadcast',
      broadcasting: true,
      syncedFollowers: undefined,
      pendingSyncs: undefined,
    });
    expect(follower.values.get('zk_quorum_size')).toBe('3');
  });

  it('marks a follower that is still syncing as not broadcasting', () => {
    const syncing = fixture('mntr-follower').replace('following - broadcast', 'following - synchronization');
    expect(parseMntr(syncing).broadcasting).toBe(false);
  });
});

describe('parseConf', () => {
  it('reads keys and the membership lines with their version', () => {
    const conf = parseConf(fixture('conf-follower'));
    expect(conf.serverId).toBe(1);
    expect(conf.values.get('clientPort')).toBe('2181');
    expect(conf.membership.servers.map((server) => [server.id, server.host, server.role])).toEqual([
      [1, '127.0.1.1', 'participant'],
      [2, '127.0.1.2', 'participant'],
      [3, '127.0.1.3', 'participant'],
    ]);
    expect(conf.membership.version?.value).toBe(0x1_0000_0000n);
  });
});

describe('parseRuok', () => {
  it('accepts imok', () => {
    expect(parseRuok(fixture('ruok'))).toEqual({ ok: true });
  });

  it('treats anything else as not ok', () => {
    expect(parseRuok('')).toEqual({ ok: false });
  });
});

describe('classifyAnswer', () => {
  const context = { host: '127.0.1.3', port: 2181, word: 'srvr' };

  it('turns the not-serving text into NotServingError', () => {
    expect(() => classifyAnswer(context, fixture('not-serving'))).toThrow(NotServingError);
  });

  it('turns the whitelist refusal into NotWhitelistedError', () => {
    expect(() => classifyAnswer({ ...context, word: 'envi' }, fixture('not-whitelisted'))).toThrow(NotWhitelistedError);
  });

  it('passes a real answer through', () => {
    expect(classifyAnswer(context, fixture('ruok'))).toBe('imok');
  });
});
