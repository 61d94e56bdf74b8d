// Health model decisions from observations built on captured srvr/mntr answers.
import { describe, expect, it } from 'vitest';
import { parseDynamicConfig, type DynamicConfig } from '../dynamic-config/config.js';
import { FourLetterWordConnectionError, NotServingError } from '../four-letter-words/errors.js';
import { fixture } from '../four-letter-words/fixtures/index.js';
import { parseMntr } from '../four-letter-words/mntr.js';
import { parseSrvr } from '../four-letter-words/srvr.js';
import { assessEnsemble } from './ensemble.js';
import type { MemberObservation } from './observation.js';

function configOf(lines: string[]): DynamicConfig {
  return parseDynamicConfig(`${lines.join('\n')}\nversion=100000000\n`);
}

const line = (id: number, role = 'participant'): string =>
  `server.${id}=10.0.0.${id}:2888:3888:${role};10.0.0.${id}:2181`;
const THREE = configOf([line(1), line(2), line(3)]);

const leader = (id: number, mntr = fixture('mntr-leader')): MemberObservation => ({
  id,
  address: `10.0.0.${id}`,
  srvr: parseSrvr(fixture('srvr-leader')),
  mntr: parseMntr(mntr),
});
const follower = (id: number, mntr = fixture('mntr-follower')): MemberObservation => ({
  id,
  address: `10.0.0.${id}`,
  srvr: parseSrvr(fixture('srvr-follower')),
  mntr: parseMntr(mntr),
});
const failing = (id: number, error: Error): MemberObservation => ({ id, address: `10.0.0.${id}`, error });
const notServing = (id: number): MemberObservation =>
  failing(id, new NotServingError({ host: `10.0.0.${id}`, port: 2181, word: 'srvr' }));

describe('assessEnsemble', () => {
  it('calls one leader with two synced followers healthy', () => {
    const assessment = assessEnsemble(THREE, [follower(1), follower(2), leader(3)]);
    expect(assessment).toMatchObject({
      voters: [1, 2, 3],
      nonVoting: [],
      leader: 3,
      quorumSize: 2,
      syncedVoters: 3,
      hasQuorum: true,
      health: { ok: true },
    });
    expect(assessment.members.map((member) => [member.id, member.role, member.synced])).toEqual([
      [1, 'follower', true],
      [2, 'follower', true],
      [3, 'leader', true],
    ]);
  });

  it.each([
    [
      'a voter that is not serving',
      [follower(1), leader(2), notServing(3)],
      { ok: false, member: 3, reason: 'member 3 (10.0.0.3) is not serving requests' },
    ],
    [
      'a voter that does not answer',
      [follower(1), leader(2), failing(3, new FourLetterWordConnectionError('connect ECONNREFUSED', { host: '10.0.0.3', port: 2181, word: 'srvr' }))],
      { ok: false, member: 3, reason: 'member 3 (10.0.0.3) does not answer: srvr on 10.0.0.3:2181: connect ECONNREFUSED' },
    ],
    ['nobody leading', [follower(1), follower(2), follower(3)], { ok: false, reason: 'no leader' }],
    ['two members leading', [leader(1), follower(2), leader(3)], { ok: false, reason: '2 members claim to lead: 1, 3' }],
    [
      'a follower still syncing',
      [follower(1), follower(2, fixture('mntr-follower').replace('following - broadcast', 'following - synchronization')), leader(3)],
      { ok: false, member: 2, reason: '2 of 3 voters synced' },
    ],
    [
      'the leader counting fewer synced followers than there are',
      [follower(1), follower(2), leader(3, fixture('mntr-leader').replace('zk_synced_followers\t2', 'zk_synced_followers\t1'))],
      { ok: false, reason: '2 of 3 voters synced' },
    ],
  ])('is unhealthy with %s', (_name, observations, health) => {
    expect(assessEnsemble(THREE, observations).health).toEqual(health);
  });

  it('names a voter that was never observed', () => {
    expect(assessEnsemble(THREE, [follower(1), leader(2)]).health).toEqual({
      ok: false,
      member: 3,
      reason: 'member 3 (10.0.0.3) was not observed',
    });
  });

  it('keeps its quorum with one voter of three down', () => {
    const assessment = assessEnsemble(THREE, [follower(1), leader(2), notServing(3)]);
    expect(assessment.hasQuorum).toBe(true);
    expect(assessment.members.find((member) => member.id === 3)).toMatchObject({ role: 'unknown', serving: false });
  });

  it('tells a server that runs but does not serve (electing, syncing) from one that does not answer', () => {
    const refused = new FourLetterWordConnectionError('connect ECONNREFUSED', { host: '10.0.0.3', port: 2181, word: 'srvr' });
    const running = (observations: MemberObservation[]): [number, boolean][] =>
      assessEnsemble(THREE, observations).members.map((member) => [member.id, member.running]);
    expect(running([follower(1), leader(2), notServing(3)])).toEqual([[1, true], [2, true], [3, true]]);
    expect(running([follower(1), leader(2), failing(3, refused)])).toEqual([[1, true], [2, true], [3, false]]);
    expect(running([follower(1), leader(2)])).toEqual([[1, true], [2, true], [3, false]]);
  });

  it('loses its quorum with two voters of three down', () => {
    expect(assessEnsemble(THREE, [follower(1), notServing(2), notServing(3)]).hasQuorum).toBe(false);
  });

  it('treats a running joiner outside the config as non-voting and still healthy', () => {
    const joiner = { ...follower(4), srvr: parseSrvr(fixture('srvr-non-voting-follower')) };
    const assessment = assessEnsemble(THREE, [
      follower(1),
      follower(2),
      leader(3, fixture('mntr-leader-with-non-voting-follower')),
      joiner,
    ]);
    expect(assessment).toMatchObject({ voters: [1, 2, 3], nonVoting: [4], leader: 3, health: { ok: true } });
  });

  it('ignores a joiner that is not up yet, but not an observer of the committed config', () => {
    expect(assessEnsemble(THREE, [follower(1), follower(2), leader(3), notServing(4)]).health.ok).toBe(true);
    const withObserver = configOf([line(1), line(2), line(3), line(4, 'observer')]);
    expect(assessEnsemble(withObserver, [follower(1), follower(2), leader(3), notServing(4)]).health).toMatchObject({
      ok: false,
      member: 4,
    });
  });

  it('refuses a leader that the committed config does not list as a voter', () => {
    const health = assessEnsemble(configOf([line(1), line(2), line(3, 'observer')]), [follower(1), follower(2), leader(3)]).health;
    expect(health).toEqual({ ok: false, member: 3, reason: 'member 3 (10.0.0.3) leads but is not a voter of the committed config' });
  });
});
