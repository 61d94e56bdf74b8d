// The writer and leader tracker the scale and rolling scenarios rely on, checked against a real local ensemble: a
// restarted follower costs no election, a killed leader exactly one, and no acknowledged write is lost either way.
import { ZOOKEEPER_PORTS } from '@zk-oam/apis';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fourLetterWord, parseSrvr } from '@zk-oam/zookeeper';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContinuousWriter, LeaderTracker } from '../src/ensemble-probe/index.js';
import { startLocalEnsemble, type LocalEnsemble } from '../src/zookeeper-local/index.js';
import { waitForValue } from '../src/wait-for.js';

/** Apart from the other local ensembles' loopback prefixes. */
const IP_PREFIX = '127.0.47';
const log = pino({ name: 'ensemble-probe.test', level: 'info' });

describe('the continuous writer and the leader tracker on a real ensemble', () => {
  let dir: string;
  let ensemble: LocalEnsemble;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zk-oam-probe-'));
    ensemble = await startLocalEnsemble({ size: 3, dir, ipPrefix: IP_PREFIX, log });
  });

  afterAll(async () => {
    await ensemble.stopAll();
    rmSync(dir, { recursive: true, force: true });
  });

  const modeOf = async (id: number): Promise<string | undefined> =>
    fourLetterWord(ensemble.member(id).ip, ZOOKEEPER_PORTS.client, 'srvr', { timeoutMs: 1_000 }).then(
      (text) => parseSrvr(text).mode,
      () => undefined,
    );
  const leaderId = (): Promise<number> =>
    waitForValue('a leader', async () => {
      for (const member of ensemble.members()) if ((await modeOf(member.id)) === 'leader') return member.id;
      return undefined;
    }, 60_000, 250);
  const allServing = (): Promise<boolean> =>
    waitForValue('every member serving', async () => ((await Promise.all(ensemble.members().map((m) => modeOf(m.id)))).every(Boolean) ? true : undefined), 60_000, 250);

  it('sees no election for a restarted follower, one for a killed leader, and no lost write', async () => {
    const leader = await leaderId();
    const follower = ensemble.members().find((member) => member.id !== leader)?.id ?? 0;
    const writer = await ContinuousWriter.start({ connectString: () => ensemble.connectString([1, 2, 3]), root: '/probe-test' });
    const tracker = new LeaderTracker({ members: () => ensemble.members().map((member) => member.ip) });
    // Writes on both sides of each disruption, so that "none lost" is about writes that were made, whatever the pace.
    await waitForValue('writes before any member is killed', () => Promise.resolve(writer.count >= 10 ? true : undefined), 60_000, 100);

    await ensemble.kill(follower);
    await ensemble.start(follower);
    await allServing();
    await ensemble.kill(leader);
    const next = await leaderId();
    await ensemble.start(leader);
    await allServing();
    const before = writer.count;
    await waitForValue('writes after the election', () => {
      if (writer.count > before + 20) return Promise.resolve(true);
      return Promise.reject(new Error(`${String(writer.count)} writes; last failure: ${writer.lastError ?? 'none'}`));
    }, 60_000, 250);

    const leaders = await tracker.stop();
    const writes = await writer.stop();
    log.info({ leaders, writes: { ...writes, lost: writes.lost.length } }, 'probe figures');
    expect(next).not.toBe(leader);
    expect(leaders.elections).toBe(1);
    expect(leaders.leaderChanges).toBe(1);
    expect(leaders.leaders).toEqual([ensemble.member(leader).ip, ensemble.member(next).ip]);
    expect(leaders.noLeaderMs).toBeGreaterThan(0);
    expect(writes.acknowledged).toBeGreaterThan(before + 20);
    expect(writes.lost).toEqual([]);
  });
});
