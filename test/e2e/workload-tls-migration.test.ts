// A serving 3-member ensemble moved from plain text to TLS (quorum TLS, the secure client port beside the plain one),
// real ZooKeeper on the bed, a rolling trait bound and a client writing on the plain port throughout. The move is three
// rolls, each followers first and the leader last; every step starts only once each member runs the one before; no
// acknowledged write is lost. Afterwards the members verify to the workload CA on the secure client port, and their
// election port speaks TLS and refuses a plain-text peer.
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect as connectTcp } from 'node:net';
import { memberSelectorOf, QUORUM_TLS_STEPS, statefulSetNameOf, TLS_SECRET_KEYS, ZOOKEEPER_PORTS, type QuorumTlsStep } from '@zk-oam/apis';
import { QUORUM_TLS_ANNOTATION } from '@zk-oam/workload';
import { describe, expect, it } from 'vitest';
import { bedWorkloadSpec, eventsAbout, kubectl, memberPodSource, PodHistory, useWorkloadController, waitFor } from '../src/controllers/index.js';
import { figures, probeEnsemble, RollingClient } from './rolling-fixtures.js';
import { appsApi, ROLL_TIMEOUT_MS, RollScenario, useRollingController } from './rolling-scenario.js';
import { handshakeVerifies, tlsSecretValue } from './tls-fixtures.js';
import { workerBed } from '../src/worker-bed.js';

const bed = workerBed();
const apps = appsApi(bed);
const suite = useWorkloadController(bed, { namespacePrefix: 'tls-move', env: { IDLE_PERIOD_MS: '2000' } });
const { client, namespace } = suite;
const traits = new RollingClient(bed);
const WORKLOAD = 'zkm';
const TRAIT = 'roll';
const MEMBERS = 3;
const STEPS = QUORUM_TLS_STEPS.length - 1;
const scenario = new RollScenario({ client, traits, namespace, workload: WORKLOAD, trait: TRAIT, members: MEMBERS });
useRollingController(bed);

async function memberIps(workload = WORKLOAD): Promise<string[]> {
  const pods = (await client.core.listNamespacedPod({ namespace, labelSelector: memberSelectorOf(workload) })).items;
  return pods.map((pod) => pod.status?.podIP ?? '').filter((ip) => ip !== '');
}

/** A vote in the election protocol's oldest form, which every member still reads: state, leader, zxid, election epoch. */
const VOTE_BYTES = 28;
const LOOKING = 0;
const UNKNOWN_SERVER_ID = 200n;

/** Whether `received` starts with a vote as a member sends it: its length (a vote at least), then a known state. */
function startsWithVote(received: Buffer): boolean {
  if (received.length < 8) return false;
  const length = received.readInt32BE(0);
  const state = received.readInt32BE(4);
  return length >= VOTE_BYTES && length <= 65_536 && state >= 0 && state <= 3;
}

/**
 * How a member's election port answers a plain-text peer. The peer sends what a plain-text member sends first (a
 * server id, here one no member has), then a vote; a port that speaks plain text answers a server outside its voters
 * with its own current vote, a TLS-only one fails the handshake and closes the connection. Neither within 15 s fails.
 */
async function electionPortAnswer(ip: string): Promise<'vote' | 'closed'> {
  const socket = connectTcp({ host: ip, port: ZOOKEEPER_PORTS.election });
  await once(socket, 'connect');
  const hello = Buffer.alloc(8 + 4 + VOTE_BYTES);
  hello.writeBigInt64BE(UNKNOWN_SERVER_ID, 0);
  hello.writeInt32BE(VOTE_BYTES, 8);
  hello.writeInt32BE(LOOKING, 12);
  hello.writeBigInt64BE(UNKNOWN_SERVER_ID, 16);
  socket.write(hello);
  let received = Buffer.alloc(0);
  try {
    return await new Promise<'vote' | 'closed'>((resolve, reject) => {
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        if (startsWithVote(received)) resolve('vote');
      });
      // A reset is the port closing too: 'close' follows every 'error'.
      socket.on('error', () => undefined);
      socket.once('close', () => resolve('closed'));
      setTimeout(() => reject(new Error(`${ip}:${String(ZOOKEEPER_PORTS.election)} neither answered nor closed; received ${received.toString('hex')}`)), 15_000).unref();
    });
  } finally {
    socket.destroy();
  }
}

/**
 * Runs `change` on a plain-text workload and returns the quorum TLS steps its status went through until it is healthy
 * at Tls with every member on it.
 */
async function stepsUntilTls(name: string, change: () => Promise<void>): Promise<QuorumTlsStep[]> {
  const stepsSeen: QuorumTlsStep[] = ['Plain'];
  // One read at a time: overlapping reads on a loaded machine can answer out of order and show a step twice.
  let watching = true;
  const watchingSteps = (async () => {
    while (watching) {
      const step = (await client.get(namespace, name).catch(() => undefined))?.status?.quorumTls;
      if (step !== undefined && stepsSeen.at(-1) !== step) stepsSeen.push(step);
      await sleep(500);
    }
  })();
  try {
    await change();
    // The StatefulSet read fresh, as the controller's own criterion: the status of its latest generation counts every
    // pod updated and ready (the workload's status could show the new step before the StatefulSet controller saw it).
    const statefulSetDone = async (): Promise<boolean> => {
      const { metadata, status } = await apps.readNamespacedStatefulSet({ namespace, name: statefulSetNameOf(name) });
      const allUpdated = status?.updatedReplicas === MEMBERS && status.readyReplicas === MEMBERS;
      return metadata?.annotations?.[QUORUM_TLS_ANNOTATION] === 'Tls' && status?.observedGeneration === metadata.generation && allUpdated;
    };
    await waitFor(
      `${name} at quorumTls Tls with every member on it`,
      async () => ({ workload: await client.get(namespace, name), statefulSetDone: await statefulSetDone() }),
      ({ workload, statefulSetDone: done }) => workload.status?.quorumTls === 'Tls' && scenario.healthy(workload) && done,
      STEPS * ROLL_TIMEOUT_MS,
      1_000,
    );
    return stepsSeen;
  } finally {
    watching = false;
    await watchingSteps;
  }
}

describe('moving a serving ensemble from plain text to TLS', () => {
  it('takes three rolls, each leader-last, each after the one before is everywhere, with no acknowledged write lost', async () => {
    await client.create(namespace, WORKLOAD, bedWorkloadSpec({ replicas: MEMBERS }));
    await traits.create(namespace, TRAIT, WORKLOAD);
    const plain = await scenario.waitHealthy();
    expect(plain.status?.quorumTls).toBe('Plain');
    // A plain-text member's election port answers a plain-text peer's vote: the check below tells the two apart.
    expect(await electionPortAnswer((await memberIps())[0] ?? '')).toBe('vote');
    const history = new PodHistory(memberPodSource(client, namespace, WORKLOAD), MEMBERS);
    await history.start();
    const probe = await probeEnsemble(client, namespace, WORKLOAD);
    const started = new Date();

    const stepsSeen = await stepsUntilTls(WORKLOAD, async () => {
      await client.patch(namespace, WORKLOAD, { spec: { tls: { quorum: true, client: 'Alongside' } } });
    });
    const moved = await client.get(namespace, WORKLOAD);
    const completed = await scenario.waitCompleted('the last roll to complete', started);
    const seconds = (Date.now() - started.getTime()) / 1000;
    await history.stop();
    const report = await probe.stop();
    console.log(figures('plain -> TLS move, three rolls', report, seconds));
    console.log(`quorumTls steps seen: ${stepsSeen.join(' -> ')}; writes of unknown outcome ${String(report.writes.unacknowledged)}, sessions ${String(report.writes.sessions)}`);

    expect(stepsSeen).toEqual([...QUORUM_TLS_STEPS]);
    expect(moved.status?.conditions?.find((condition) => condition.type === 'Progressing')?.reason).not.toBe('MovingToTls');
    scenario.expectRollsInARow(history, report, STEPS);
    expect(completed.status).toMatchObject({ updatedReplicas: MEMBERS, pendingReplicas: 0, leaderRestarted: true });

    const notes = (await eventsAbout(client, namespace, WORKLOAD))
      .filter((event) => event.reason === 'MovingToTls')
      .sort((a, b) => new Date(a.eventTime ?? 0).getTime() - new Date(b.eventTime ?? 0).getTime())
      .map((event) => event.note ?? '');
    expect(notes).toEqual(QUORUM_TLS_STEPS.slice(1).map((step, index) => expect.stringContaining(`step ${String(index + 1)} of ${String(STEPS)} (${step}:`) as unknown));

    const [header, row] = (await kubectl(bed, ['get', 'zkw', WORKLOAD, '-n', namespace, '-o', 'wide'])).split('\n');
    expect(header?.split(/\s{2,}/)).toContain('QUORUM TLS');
    expect(row?.split(/\s+/)).toContain('Tls');

    const secretValue = (key: string): Promise<Buffer> => tlsSecretValue({ client, namespace, workload: WORKLOAD }, key);
    const credentials = { ca: await secretValue(TLS_SECRET_KEYS.ca), cert: await secretValue(TLS_SECRET_KEYS.certificate), key: await secretValue(TLS_SECRET_KEYS.privateKey) };
    for (const ip of await memberIps()) {
      expect(await handshakeVerifies(ip, ZOOKEEPER_PORTS.secureClient, { ca: credentials.ca })).toBe(true);
      expect(await handshakeVerifies(ip, ZOOKEEPER_PORTS.election, credentials)).toBe(true);
      expect(await electionPortAnswer(ip)).toBe('closed');
    }
  });

  it('without a rolling trait, the StatefulSet rolls each step natively, and the move still goes one step at a time', async () => {
    const name = 'zkn';
    await client.create(namespace, name, bedWorkloadSpec({ replicas: MEMBERS }));
    await scenario.waitHealthy(name);
    const stepsSeen = await stepsUntilTls(name, async () => {
      await client.patch(namespace, name, { spec: { tls: { quorum: true } } });
    });
    expect(stepsSeen).toEqual([...QUORUM_TLS_STEPS]);
    const ips = await memberIps(name);
    expect(ips).toHaveLength(MEMBERS);
    for (const ip of ips) expect(await electionPortAnswer(ip)).toBe('closed');
    await client.delete(namespace, name);
  });

  it('refuses turning quorum TLS off and dropping the plain client port', async () => {
    const oneWay = /tls.quorum can be turned on but not off, and tls.client can only go from Disabled to Alongside/;
    await expect(client.patch(namespace, WORKLOAD, { spec: { tls: { quorum: false } } })).rejects.toThrow(oneWay);
    await expect(client.patch(namespace, WORKLOAD, { spec: { tls: { client: 'Only' } } })).rejects.toThrow(oneWay);
    await expect(client.patch(namespace, WORKLOAD, { spec: { tls: { client: 'Disabled' } } })).rejects.toThrow(oneWay);
    await expect(client.patch(namespace, WORKLOAD, { spec: { tls: { certificates: { issuerRef: { name: 'ca-issuer' } } } } })).rejects.toThrow(
      /issuerRef cannot be set or removed once the workload uses TLS/,
    );
  });

  it('lets a workload that uses no TLS yet name a cert-manager issuer as it turns TLS on: no member trusts a CA yet', async () => {
    await client.create(namespace, 'zkp', bedWorkloadSpec({ replicas: 1 }));
    await client.patch(namespace, 'zkp', { spec: { tls: { quorum: true, certificates: { issuerRef: { name: 'ca-issuer' } } } } });
    expect((await client.get(namespace, 'zkp')).spec.tls).toMatchObject({ quorum: true, certificates: { issuerRef: { name: 'ca-issuer', kind: 'Issuer' } } });
    await client.delete(namespace, 'zkp');
  });
});
