// readCommittedConfig: asks the leader's conf first and turns every failure into a reading, never a throw.
import { describe, expect, it } from 'vitest';
import { fixture } from '../four-letter-words/fixtures/index.js';
import { follower, leader, notServing } from '../testing/ensemble.js';
import { readCommittedConfig, type ConfReader } from './committed-config.js';
import { CommittedConfigReadError, NoServingMemberError } from './errors.js';

const CLIENT_PORT = 2181;

function recordingReader(answer: () => Promise<string>): { readConf: ConfReader; asked: string[] } {
  const asked: string[] = [];
  const readConf: ConfReader = (host, port) => {
    asked.push(`${host}:${String(port)}`);
    return answer();
  };
  return { readConf, asked };
}

const committedConf = (): Promise<string> => Promise.resolve(fixture('conf-follower'));

describe('readCommittedConfig', () => {
  it("reads the leader's conf: its membership and version", async () => {
    const { readConf, asked } = recordingReader(committedConf);
    const reading = await readCommittedConfig([follower(1), leader(2), follower(3)], { clientPort: CLIENT_PORT, timeoutMs: 1_000, readConf });
    expect(asked).toEqual(['127.64.3.2:2181']);
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    expect(reading.readFrom).toBe('zk-1');
    expect(reading.config.servers.map((server) => [server.id, server.host, server.role])).toEqual([
      [1, '127.0.1.1', 'participant'],
      [2, '127.0.1.2', 'participant'],
      [3, '127.0.1.3', 'participant'],
    ]);
    expect(reading.config.version.value).toBe(0x1_0000_0000n);
  });

  it('falls back to a serving follower when nobody leads', async () => {
    const { readConf, asked } = recordingReader(committedConf);
    await readCommittedConfig([notServing(1), follower(2)], { clientPort: CLIENT_PORT, timeoutMs: 1_000, readConf });
    expect(asked).toEqual(['127.64.3.2:2181']);
  });

  it('reports a failed read with the pod it asked', async () => {
    const { readConf } = recordingReader(() => Promise.reject(new Error('connect ECONNREFUSED')));
    const reading = await readCommittedConfig([leader(1)], { clientPort: CLIENT_PORT, timeoutMs: 1_000, readConf });
    expect(reading.ok ? undefined : reading.error).toBeInstanceOf(CommittedConfigReadError);
    expect(reading.ok ? '' : reading.error.message).toBe('cannot read the committed config from zk-0');
  });

  it('refuses a membership without a version: nothing committed to reconfig from', async () => {
    const unversioned = fixture('conf-follower').replace(/^version=.*$/m, '');
    const { readConf } = recordingReader(() => Promise.resolve(unversioned));
    const reading = await readCommittedConfig([leader(1)], { clientPort: CLIENT_PORT, timeoutMs: 1_000, readConf });
    expect(reading.ok ? undefined : (reading.error.cause as Error).name).toBe('UnversionedConfigError');
  });

  it('asks nobody when no member serves', async () => {
    const { readConf, asked } = recordingReader(committedConf);
    const reading = await readCommittedConfig([notServing(1), notServing(2)], { clientPort: CLIENT_PORT, timeoutMs: 1_000, readConf });
    expect(reading.ok ? undefined : reading.error).toBeInstanceOf(NoServingMemberError);
    expect(asked).toEqual([]);
  });
});
