// Settling a reconfig: a lost answer is settled by reading the committed config again, a refusal is thrown, and the
// wait between attempts ends at once when aborted.
import { describe, expect, it } from 'vitest';
import { parseDynamicConfig } from '../dynamic-config/config.js';
import type { ReconfigDelta } from '../dynamic-config/delta.js';
import { parseZxid, type Zxid } from '../zxid.js';
import type { CommittedConfig } from './client.js';
import { ZOO_CODES } from './codes.js';
import { ZooKeeperConnectionError, ZooKeeperOperationError } from './errors.js';
import { settleReconfig } from './settle-reconfig.js';

const context = { operation: 'reconfig', connectString: '10.0.0.1:2181' };
const lost = (): ZooKeeperConnectionError => new ZooKeeperConnectionError('connection loss', context);

function committed(version: string, ...ids: number[]): CommittedConfig {
  const lines = ids.map((id) => `server.${String(id)}=zk-${String(id)}:2888:3888:participant;2181`);
  return { ...parseDynamicConfig(lines.join('\n')), version: parseZxid(version) };
}

/** The three verbs over one committed config; `failures` are thrown by the next calls of `failing`, in order. */
class FakeAdmin {
  config = committed('100000001', 1, 2, 3);
  readonly calls: string[] = [];
  constructor(
    private readonly failing: 'sync' | 'reconfig',
    private readonly failures: Error[],
    /** The reconfig commits although its answer is lost, as when it removes the leader. */
    private readonly commitsBeforeFailing = false,
  ) {}

  sync(): Promise<void> {
    this.calls.push('sync');
    return this.failing === 'sync' ? this.nextFailure() : Promise.resolve();
  }

  getConfig(): Promise<CommittedConfig> {
    this.calls.push('getConfig');
    return Promise.resolve(this.config);
  }

  reconfig(delta: ReconfigDelta, fromVersion: Zxid): Promise<CommittedConfig> {
    this.calls.push(`reconfig from ${fromVersion.value.toString(16)} leaving ${delta.leaving.join(',')}`);
    if (this.commitsBeforeFailing) this.config = committed('200000000', 1, 2);
    return this.failing === 'reconfig' ? this.nextFailure().then(() => this.config) : Promise.resolve(this.config);
  }

  private nextFailure(): Promise<void> {
    const failure = this.failures.shift();
    return failure === undefined ? Promise.resolve() : Promise.reject(failure);
  }
}

const target = committed('0', 1, 2).servers;
const quick = { baseMs: 1, maxMs: 1 };

describe('settleReconfig', () => {
  it('settles a reconfig whose answer was lost by reading the committed config again', async () => {
    const admin = new FakeAdmin('reconfig', [lost()], true);
    const settled = await settleReconfig(admin, target, { backoff: quick });
    expect(settled.servers.map((server) => server.id)).toStrictEqual([1, 2]);
    expect(admin.calls).toStrictEqual(['sync', 'getConfig', 'reconfig from 100000001 leaving 3', 'sync', 'getConfig']);
  });

  it('throws a refusal at once, and the last unknown outcome when the attempts run out', async () => {
    const refused = new ZooKeeperOperationError({ ...context, code: ZOO_CODES.ZBADVERSION });
    const refusing = new FakeAdmin('reconfig', [refused]);
    await expect(settleReconfig(refusing, target, { backoff: quick })).rejects.toBe(refused);
    expect(refusing.calls).toHaveLength(3);

    const unreachable = new FakeAdmin('sync', [lost(), lost(), lost()]);
    await expect(settleReconfig(unreachable, target, { attempts: 3, backoff: quick })).rejects.toBeInstanceOf(ZooKeeperConnectionError);
    expect(unreachable.calls).toStrictEqual(['sync', 'sync', 'sync']);
  });

  it('ends its wait at once when aborted, with the unknown outcome and no further attempt', async () => {
    const admin = new FakeAdmin('sync', [lost(), lost()]);
    const stop = new AbortController();
    const started = Date.now();
    const settling = settleReconfig(admin, target, { signal: stop.signal });
    setTimeout(() => stop.abort(), 20);
    await expect(settling).rejects.toBeInstanceOf(ZooKeeperConnectionError);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(admin.calls).toStrictEqual(['sync']);
  });
});
