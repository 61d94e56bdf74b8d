// The answer builder prints what ZooKeeper prints, and the health model reads its observations as it reads real ones.
import { describe, expect, it } from 'vitest';
import { parseDynamicConfig } from '../dynamic-config/config.js';
import { NotServingError } from '../four-letter-words/errors.js';
import { fixture } from '../four-letter-words/fixtures/index.js';
import { assessEnsemble } from '../health/ensemble.js';
import { parseZxid } from '../zxid.js';
import { answeringMember, mntrText, notServingMember, srvrText } from './answers.js';

const THREE_VOTERS = parseDynamicConfig(fixture('conf-follower'));
const address = (id: number): string => `127.0.1.${id}`;

describe('answers built from the captured srvr/mntr', () => {
  it('reproduces the captured leader and follower answers when nothing is changed', () => {
    expect(srvrText({ mode: 'leader' })).toBe(fixture('srvr-leader'));
    expect(mntrText({ mode: 'leader' })).toBe(fixture('mntr-leader'));
    expect(mntrText({ mode: 'follower' })).toBe(fixture('mntr-follower'));
  });

  it('carries the zxid, role, phase and leader counts a test asks for', () => {
    const leader = answeringMember(1, address(1), {
      mode: 'leader',
      zxid: parseZxid('0x200000007'),
      synced: { followers: 3, nonVotingFollowers: 1 },
    });
    const observer = answeringMember(4, address(4), { mode: 'observer', phase: 'synchronization' });
    expect(leader.srvr?.zxid.value).toBe(0x200000007n);
    expect(leader.mntr).toMatchObject({ serverState: 'leader', syncedFollowers: 3, syncedNonVotingFollowers: 1, syncedObservers: 0 });
    expect(observer.srvr?.mode).toBe('observer');
    expect(observer.mntr).toMatchObject({ peerState: 'observing - synchronization', broadcasting: false, syncedFollowers: undefined });
  });

  it('gives the health model a healthy ensemble, a lagging follower and a member that is not serving', () => {
    const leader = answeringMember(1, address(1), { mode: 'leader' });
    const follower = (id: number): ReturnType<typeof answeringMember> => answeringMember(id, address(id), { mode: 'follower' });
    expect(assessEnsemble(THREE_VOTERS, [leader, follower(2), follower(3)]).health).toEqual({ ok: true });

    const lagging = answeringMember(3, address(3), { mode: 'follower', phase: 'synchronization' });
    expect(assessEnsemble(THREE_VOTERS, [leader, follower(2), lagging]).health).toMatchObject({ ok: false, member: 3 });

    const down = notServingMember(2, address(2));
    expect(down.error).toBeInstanceOf(NotServingError);
    expect(assessEnsemble(THREE_VOTERS, [leader, down, follower(3)]).health).toEqual({
      ok: false,
      member: 2,
      reason: 'member 2 (127.0.1.2) is not serving requests',
    });
  });
});
