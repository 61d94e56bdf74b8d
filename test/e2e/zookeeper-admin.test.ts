// The ZooKeeper package against a real local ensemble: 4lw health, superuser reconfig, joiners, moving the leader.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  assessEnsemble,
  majorityAfter,
  observeMembers,
  reconfigDelta,
  ZooKeeperAdmin,
  ZooKeeperOperationError,
  type CommittedConfig,
  type EnsembleAssessment,
  type ServerEntry,
} from '@zk-oam/zookeeper';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalEnsemble, type LocalEnsemble } from '../src/zookeeper-local/index.js';
import { waitForValue } from '../src/wait-for.js';

const SUPER_PASSWORD = 'zk-oam-test-super';
const log = pino({ name: 'zookeeper-admin.test', level: 'info' });

describe('ZooKeeper admin against a real 3.8 ensemble', () => {
  let dir: string;
  let ensemble: LocalEnsemble;
  const admins: ZooKeeperAdmin[] = [];

  /** A superuser session over the given members (default: every running one). */
  async function connectAdmin(ids?: number[]): Promise<ZooKeeperAdmin> {
    const admin = await ZooKeeperAdmin.connect({
      connectString: ensemble.connectString(ids),
      superPassword: SUPER_PASSWORD,
      log,
    });
    admins.push(admin);
    return admin;
  }

  async function committedConfig(): Promise<CommittedConfig> {
    const admin = await connectAdmin();
    try {
      await admin.sync();
      return await admin.getConfig();
    } finally {
      admin.close();
    }
  }

  /** Observes the committed members plus any running member the config does not list yet. */
  async function assess(config: CommittedConfig): Promise<EnsembleAssessment> {
    // The local ensemble's members all have a plain client port.
    const listed = config.servers.flatMap((server) => (server.clientPort === undefined ? [] : [{ id: server.id, host: server.host, clientPort: server.clientPort }]));
    const unlisted = ensemble
      .members()
      .filter((member) => member.running() && !listed.some((server) => server.id === member.id))
      .map((member) => ({ id: member.id, host: member.ip, clientPort: member.ports.client }));
    return assessEnsemble(config, await observeMembers([...listed, ...unlisted], { mntr: true }));
  }

  function waitHealthy(config: CommittedConfig, what: string): Promise<EnsembleAssessment> {
    return waitForValue(what, async () => {
      const assessment = await assess(config);
      return assessment.health.ok ? assessment : undefined;
    }, 60_000, 250);
  }

  function participantIds(servers: ServerEntry[]): number[] {
    return servers.filter((server) => server.role === 'participant').map((server) => server.id);
  }

  /** Starts member `id` as a non-voting joiner, waits until the leader counts it synced, then reconfigs it in. */
  async function addMember(id: number): Promise<CommittedConfig> {
    const before = await committedConfig();
    await ensemble.addJoiner(id, before.servers);
    const joined = await waitForValue(`member ${id} synced as non-voting follower`, async () => {
      const assessment = await assess(before);
      const joiner = assessment.members.find((member) => member.id === id);
      return assessment.health.ok && joiner?.synced === true ? assessment : undefined;
    }, 60_000, 250);
    expect(joined.nonVoting).toEqual([id]);
    expect(joined.voters).not.toContain(id);

    const target = [...before.servers, ensemble.serverEntry(id)];
    const staying = joined.members.filter((member) => member.serving).map((member) => member.id);
    expect(majorityAfter(staying, participantIds(before.servers), participantIds(target))).toEqual({ ok: true });
    const admin = await connectAdmin();
    try {
      return await admin.reconfig(reconfigDelta(before.servers, target), before.version);
    } finally {
      admin.close();
    }
  }

  async function confirmWrite(): Promise<bigint> {
    const admin = await connectAdmin();
    try {
      return (await admin.confirmByWrite()).zxid;
    } finally {
      admin.close();
    }
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zk-oam-zookeeper-admin-'));
    ensemble = await startLocalEnsemble({ size: 3, dir, superPassword: SUPER_PASSWORD, log });
  });

  afterAll(async () => {
    admins.forEach((admin) => admin.close());
    await ensemble?.stopAll();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows one leader and two synced followers, which the health model calls healthy', async () => {
    const config = await committedConfig();
    const assessment = await waitHealthy(config, 'a healthy 3-member ensemble');
    expect(assessment.leader).toBeDefined();
    expect(assessment.members.filter((member) => member.role === 'follower' && member.synced)).toHaveLength(2);
    expect(assessment.syncedVoters).toBe(3);
  });

  it('returns the three voters from the committed config', async () => {
    const config = await committedConfig();
    expect(config.servers.map((server) => [server.id, server.host, server.role])).toEqual([
      [1, '127.0.1.1', 'participant'],
      [2, '127.0.1.2', 'participant'],
      [3, '127.0.1.3', 'participant'],
    ]);
    expect(config.version.epoch).toBeGreaterThan(0);
  });

  it('refuses reconfig without the superuser digest (NOAUTH) and changes nothing', async () => {
    const config = await committedConfig();
    const anonymous = await ZooKeeperAdmin.connect({ connectString: ensemble.connectString() });
    admins.push(anonymous);
    try {
      const withoutThree = config.servers.filter((server) => server.id !== 3);
      const refused = anonymous.reconfig(reconfigDelta(config.servers, withoutThree), config.version);
      await expect(refused).rejects.toBeInstanceOf(ZooKeeperOperationError);
      await expect(refused).rejects.toMatchObject({ codeName: 'ZNOAUTH' });
    } finally {
      anonymous.close();
    }
    expect(await committedConfig()).toEqual(config);
    expect(await confirmWrite()).toBeGreaterThan(0n);
  });

  it('names a killed follower as the problem, keeps the quorum, and heals when it starts again', async () => {
    const config = await committedConfig();
    const { leader } = await waitHealthy(config, 'a healthy 3-member ensemble');
    const victim = config.servers.find((server) => server.id !== leader);
    if (victim === undefined) {
      throw new Error('no follower to kill');
    }
    await ensemble.kill(victim.id);
    const degraded = await assess(config);
    expect(degraded.hasQuorum).toBe(true);
    expect(degraded.health).toMatchObject({ ok: false, member: victim.id });
    const expectedStart = `member ${victim.id} (${victim.host}) does not answer`;
    expect((degraded.health.ok ? '' : degraded.health.reason).slice(0, expectedStart.length)).toBe(expectedStart);
    expect(await confirmWrite()).toBeGreaterThan(0n);

    await ensemble.start(victim.id);
    await waitHealthy(config, `member ${victim.id} back and synced`);
  });

  it('adds members 4 and 5 as non-voting joiners, then reconfigs each in as a participant', async () => {
    let lastWrite = await confirmWrite();
    for (const id of [4, 5]) {
      const config = await addMember(id);
      expect(config.servers.find((server) => server.id === id)?.role).toBe('participant');
      expect(await committedConfig()).toEqual(config);
      const assessment = await waitHealthy(config, `member ${id} voting and synced`);
      expect(assessment.voters).toContain(id);
      const write = await confirmWrite();
      expect(write).toBeGreaterThan(lastWrite);
      lastWrite = write;
    }
    expect(participantIds((await committedConfig()).servers)).toEqual([1, 2, 3, 4, 5]);
  });

  it('moves leadership when the leader is removed with reconfig', async () => {
    const before = await committedConfig();
    const { leader } = await waitHealthy(before, 'a healthy 5-member ensemble');
    if (leader === undefined) {
      throw new Error('no leader to remove');
    }
    const remaining = before.servers.filter((server) => server.id !== leader);
    const staying = participantIds(before.servers);
    expect(majorityAfter(staying, staying, participantIds(remaining))).toEqual({ ok: true });

    // The leader answers the reconfig that removes it just before it steps down, so the answer may be lost:
    // reconfigTo settles that by re-reading the committed config.
    const admin = await connectAdmin(remaining.map((server) => server.id));
    let after: CommittedConfig;
    try {
      after = await admin.reconfigTo(remaining);
      expect(await admin.reconfigTo(remaining)).toEqual(after);
    } finally {
      admin.close();
    }
    expect(after.servers.map((server) => server.id)).not.toContain(leader);

    const assessment = await waitHealthy(after, 'a new leader among the remaining four');
    expect(assessment.leader).toBeDefined();
    expect(assessment.leader).not.toBe(leader);
    expect(assessment.voters).toHaveLength(4);
    expect(assessment.voters).not.toContain(leader);
    expect(await confirmWrite()).toBeGreaterThan(0n);
  });

  it('stops every member and leaves no ZooKeeper process behind', async () => {
    const pids = ensemble.members().map((member) => member.pid());
    await ensemble.stopAll();
    expect(ensemble.members().filter((member) => member.running())).toEqual([]);
    for (const pid of pids) {
      expect(pid).toBeDefined();
      expect(() => process.kill(pid ?? 0, 0)).toThrow();
    }
  });
});
