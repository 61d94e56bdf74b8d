// readCommittedConfig: asks the leader first, closes its session, and turns every failure into a reading, never a throw.
import { describe, expect, it } from 'vitest';
import { readCommittedConfig, type AdminFactory } from './committed-config.js';
import { CommittedConfigReadError, NoServingMemberError } from './errors.js';
import { THREE_VOTERS, follower, leader, notServing } from '../testing/ensemble.js';

function recordingFactory(outcome: 'ok' | 'fails'): { factory: AdminFactory; asked: string[]; closed: () => number } {
  const asked: string[] = [];
  let closed = 0;
  const factory: AdminFactory = (connectString) => {
    asked.push(connectString);
    return Promise.resolve({
      getConfig: () => (outcome === 'ok' ? Promise.resolve(THREE_VOTERS) : Promise.reject(new Error('connection loss'))),
      close: () => {
        closed += 1;
      },
    });
  };
  return { factory, asked, closed: () => closed };
}

describe('readCommittedConfig', () => {
  it('reads from the leader and closes the session', async () => {
    const { factory, asked, closed } = recordingFactory('ok');
    const reading = await readCommittedConfig([follower(1), leader(2), follower(3)], { clientPort: 2181, timeoutMs: 1_000, adminFactory: factory });
    expect(reading).toEqual({ ok: true, config: THREE_VOTERS, readFrom: 'zk-1' });
    expect(asked).toEqual(['127.64.3.2:2181']);
    expect(closed()).toBe(1);
  });

  it('falls back to a serving follower when nobody leads', async () => {
    const { factory, asked } = recordingFactory('ok');
    await readCommittedConfig([notServing(1), follower(2)], { clientPort: 2181, timeoutMs: 1_000, adminFactory: factory });
    expect(asked).toEqual(['127.64.3.2:2181']);
  });

  it('reports a failed read with the pod it asked, and still closes the session', async () => {
    const { factory, closed } = recordingFactory('fails');
    const reading = await readCommittedConfig([leader(1)], { clientPort: 2181, timeoutMs: 1_000, adminFactory: factory });
    expect(reading.ok).toBe(false);
    expect(reading.ok ? undefined : reading.error).toBeInstanceOf(CommittedConfigReadError);
    expect(reading.ok ? '' : reading.error.message).toBe('cannot read the committed config from zk-0');
    expect(closed()).toBe(1);
  });

  it('asks nobody when no member serves', async () => {
    const { factory, asked } = recordingFactory('ok');
    const reading = await readCommittedConfig([notServing(1), notServing(2)], { clientPort: 2181, timeoutMs: 1_000, adminFactory: factory });
    expect(reading.ok ? undefined : reading.error).toBeInstanceOf(NoServingMemberError);
    expect(asked).toEqual([]);
  });
});
