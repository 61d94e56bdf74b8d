// The workload observer against a real local ZooKeeper 3.8 ensemble: it sees the leader and the committed config,
// and names a killed member, which deriveStatus turns into Degraded.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Pod, V1StatefulSet } from '@kubernetes/client-node';
import {
  derivedNames,
  memberSelectorLabels,
  podOfMember,
  workloadLabels,
  ZOOKEEPER_PORTS,
  ZOOKEEPER_WORKLOAD,
  type ZookeeperWorkload,
  zookeeperWorkloadSchema,
} from '@zk-oam/apis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveStatus } from '@zk-oam/workload';
import { observeEnsemble } from '@zk-oam/zookeeper';
import { startLocalEnsemble, type LocalEnsemble } from '../src/zookeeper-local/index.js';
import { waitForValue } from '../src/wait-for.js';

/** Apart from the ZooKeeper package test's 127.0.1.x. */
const IP_PREFIX = '127.0.48';
const log = pino({ name: 'workload-observe.test', level: 'info' });

/** The workload's StatefulSet and pods as the workload controller renders them; the members are a local ensemble's. */
const NAMES = derivedNames('zk');
const workload: ZookeeperWorkload = zookeeperWorkloadSchema.parse({
  apiVersion: ZOOKEEPER_WORKLOAD.apiVersion,
  kind: ZOOKEEPER_WORKLOAD.kind,
  metadata: { name: 'zk', namespace: 'observe', uid: 'uid-observe', generation: 1 },
  spec: { replicas: 3 },
  status: { phase: 'Running' },
});

const statefulSet: V1StatefulSet = {
  metadata: { name: NAMES.statefulSet, namespace: 'observe' },
  spec: { replicas: 3, serviceName: NAMES.headlessService, selector: { matchLabels: memberSelectorLabels('zk') }, template: {} },
  status: { replicas: 3, currentRevision: 'zk-1', updateRevision: 'zk-1' },
};

describe('observeEnsemble against a real ensemble', () => {
  let dir: string;
  let ensemble: LocalEnsemble | undefined;
  let pods: V1Pod[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zk-oam-observe-'));
    ensemble = await startLocalEnsemble({ size: 3, dir, ipPrefix: IP_PREFIX, log });
    pods = ensemble.members().map((member) => ({
      metadata: { name: podOfMember(NAMES.statefulSet, member.id), namespace: 'observe', labels: { ...workloadLabels('zk'), 'controller-revision-hash': 'zk-1' } },
      status: { podIP: member.ip },
    }));
  });

  afterAll(async () => {
    await ensemble?.stopAll();
    rmSync(dir, { recursive: true, force: true });
  });

  const observe = (): ReturnType<typeof observeEnsemble> => observeEnsemble(
      (ensemble?.members() ?? []).map((member) => ({ pod: podOfMember(NAMES.statefulSet, member.id), myid: member.id, ip: member.ip })),
      { clientPort: ZOOKEEPER_PORTS.client, timeoutMs: 3_000 },
    );

  it('sees one leader, two followers and the committed three-voter config', async () => {
    const observation = await waitForValue('a leader and three serving members', async () => {
      const seen = await observe();
      return seen.members.every((member) => member.observation.srvr !== undefined) && seen.committed.ok ? seen : undefined;
    }, 60_000, 250);
    const modes = observation.members.map((member) => member.observation.srvr?.mode).sort();
    expect(modes).toEqual(['follower', 'follower', 'leader']);
    const leaderPod = observation.members.find((member) => member.observation.srvr?.mode === 'leader')?.pod;
    expect(observation.committed).toMatchObject({ ok: true, readFrom: leaderPod });
    expect(observation.committed.ok ? observation.committed.config.servers.map((server) => server.id) : []).toEqual([1, 2, 3]);

    const { status, membership } = deriveStatus({ workload, statefulSet, pods, ensemble: observation, now: new Date() });
    expect(status).toMatchObject({ phase: 'Running', replicas: 3, readyReplicas: 3, leader: leaderPod });
    expect(status.conditions?.find((condition) => condition.type === 'Ready')).toMatchObject({ status: 'True', reason: 'QuorumHealthy' });
    expect(membership?.members.map((member) => member.pod)).toEqual(['zk-0', 'zk-1', 'zk-2']);
  });

  it('names a killed member, and deriveStatus calls the ensemble Degraded with that member', async () => {
    const running = ensemble;
    if (running === undefined) {
      throw new Error('the ensemble did not start');
    }
    const before = await observe();
    const victim = before.members.find((member) => member.observation.srvr?.mode === 'follower');
    if (victim === undefined) {
      throw new Error('no follower to kill');
    }
    await running.kill(victim.myid);

    const observation = await observe();
    const seen = observation.members.find((member) => member.myid === victim.myid);
    expect(seen?.pod).toBe(victim.pod);
    expect(seen?.observation.srvr).toBeUndefined();
    expect(seen?.observation.error?.message).toContain(`${victim.ip ?? ''}:${ZOOKEEPER_PORTS.client}`);
    expect(observation.committed.ok).toBe(true);

    const { status } = deriveStatus({ workload, statefulSet, pods, ensemble: observation, now: new Date() });
    expect(status.phase).toBe('Degraded');
    expect(status.readyReplicas).toBe(2);
    const degraded = status.conditions?.find((condition) => condition.type === 'Degraded');
    expect(degraded).toMatchObject({ status: 'True', reason: 'MemberNotServing' });
    expect(degraded?.message).toContain(`${victim.pod} (myid ${victim.myid}, ${victim.ip ?? ''}) does not answer`);
  });
});
