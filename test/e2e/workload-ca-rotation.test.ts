// A serving 3-member ensemble with quorum TLS and the secure client port beside the plain one, signed by a CA of the
// user's (spec.tls.certificates.caSecretRef), real ZooKeeper on the bed, a rolling trait bound and a client writing on
// the plain port throughout. The user puts a new CA into their Secret: the members move to it in three rolls (trust
// both CAs, then a certificate of the new CA, then trust the new CA only), each leader-last and each started once every
// member runs the one before; no acknowledged write is lost. Afterwards every member presents a certificate of the new
// CA only, and the member Secret trusts the new CA alone.
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { memberSelectorOf, statefulSetNameOf, TLS_SECRET_KEYS, ZOOKEEPER_PORTS } from '@zk-oam/apis';
import { CA_ROTATION_ANNOTATION } from '@zk-oam/workload';
import { afterAll, describe, expect, it } from 'vitest';
import { bedWorkloadSpec, eventsAbout, memberPodSource, PodHistory, useWorkloadController, waitFor } from '../src/controllers/index.js';
import { figures, probeEnsemble, RollingClient } from './rolling-fixtures.js';
import { appsApi, ROLL_TIMEOUT_MS, RollScenario, useRollingController } from './rolling-scenario.js';
import { handshakeVerifies, tlsSecretValue } from './tls-fixtures.js';
import { workerBed } from '../src/worker-bed.js';

const WORKLOAD = 'zkr';
const TRAIT = 'roll';
const USER_CA = 'user-ca';
const MEMBERS = 3;
const STEPS = 3;
const run = promisify(execFile);
const bed = workerBed();
const apps = appsApi(bed);
const { client, namespace } = useWorkloadController(bed, { namespacePrefix: 'ca-rot', env: { IDLE_PERIOD_MS: '2000' } });
const traits = new RollingClient(bed);
const scenario = new RollScenario({ client, traits, namespace, workload: WORKLOAD, trait: TRAIT, members: MEMBERS });
useRollingController(bed);

interface TestCa {
  readonly certificate: string;
  readonly key: string;
}

/** A self-signed ECDSA P-256 test CA; each has its own subject (ZooKeeper trusts one CA per subject). */
async function makeCa(dir: string, name: string): Promise<TestCa> {
  const keyFile = join(dir, `${name}.key`);
  const certificateFile = join(dir, `${name}.crt`);
  await run('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', keyFile, '-out', certificateFile,
    '-days', '30', '-subj', `/CN=zk-oam CA rotation test ${name}`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  return { certificate: await readFile(certificateFile, 'utf8'), key: await readFile(keyFile, 'utf8') };
}

function caSecretData(ca: TestCa): Record<string, string> {
  return { 'tls.crt': Buffer.from(ca.certificate).toString('base64'), 'tls.key': Buffer.from(ca.key).toString('base64') };
}

async function memberCa(): Promise<string> {
  return (await tlsSecretValue({ client, namespace, workload: WORKLOAD }, TLS_SECRET_KEYS.ca)).toString('utf8');
}

/** Whether a member's secure client port presents a certificate that verifies to `ca`. */
function verifiesTo(ip: string, ca: string): Promise<boolean> {
  return handshakeVerifies(ip, ZOOKEEPER_PORTS.secureClient, { ca });
}

/** The steps of the rotation the workload's Progressing condition showed, in order, while `during` runs. */
async function stepsShown(during: () => Promise<void>): Promise<number[]> {
  const seen: number[] = [];
  const watching = setInterval(() => {
    client.get(namespace, WORKLOAD).then(
      (workload) => {
        const progressing = workload.status?.conditions?.find((condition) => condition.type === 'Progressing');
        const step = progressing?.reason === 'RotatingCa' ? Number(/step (\d) of 3/.exec(progressing.message ?? '')?.[1]) : undefined;
        if (step !== undefined && seen.at(-1) !== step) seen.push(step);
      },
      () => undefined,
    );
  }, 500);
  try {
    await during();
    return seen;
  } finally {
    clearInterval(watching);
  }
}

describe('rotating the CA of a serving TLS ensemble', () => {
  let dir: string;
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('takes three rolls, each leader-last, each after the one before is everywhere, with no acknowledged write lost', async () => {
    dir = await mkdtemp(join(tmpdir(), 'zk-oam-ca-rotation-'));
    const oldCa = await makeCa(dir, 'old');
    const newCa = await makeCa(dir, 'new');
    await client.core.createNamespacedSecret({ namespace, body: { metadata: { name: USER_CA }, type: 'kubernetes.io/tls', data: caSecretData(oldCa) } });
    await client.create(namespace, WORKLOAD, bedWorkloadSpec({ replicas: MEMBERS, tls: { quorum: true, client: 'Alongside', certificates: { caSecretRef: { name: USER_CA } } } }));
    await traits.create(namespace, TRAIT, WORKLOAD);
    await scenario.waitHealthy();
    expect(new X509Certificate(await memberCa()).fingerprint256).toBe(new X509Certificate(oldCa.certificate).fingerprint256);

    const history = new PodHistory(memberPodSource(client, namespace, WORKLOAD), MEMBERS);
    await history.start();
    const probe = await probeEnsemble(client, namespace, WORKLOAD);
    const started = new Date();
    const newFingerprint = new X509Certificate(newCa.certificate).fingerprint256;
    const steps = await stepsShown(async () => {
      await client.core.replaceNamespacedSecret({ namespace, name: USER_CA, body: { metadata: { name: USER_CA }, type: 'kubernetes.io/tls', data: caSecretData(newCa) } });
      // The StatefulSet read fresh, as the controller's own criterion: the rotation is over once the member Secret
      // trusts the new CA alone and the StatefulSet no longer records a step, every pod updated and ready.
      const statefulSetDone = async (): Promise<boolean> => {
        const { metadata, status } = await apps.readNamespacedStatefulSet({ namespace, name: statefulSetNameOf(WORKLOAD) });
        const allUpdated = status?.updatedReplicas === MEMBERS && status.readyReplicas === MEMBERS && status.observedGeneration === metadata?.generation;
        return metadata?.annotations?.[CA_ROTATION_ANNOTATION] === undefined && allUpdated;
      };
      const trustsNewAlone = async (): Promise<boolean> => {
        const ca = await memberCa();
        return ca.split('-----BEGIN CERTIFICATE-----').length === 2 && new X509Certificate(ca).fingerprint256 === newFingerprint;
      };
      await waitFor(
        `${WORKLOAD} on the new CA alone, every member on it`,
        async () => ({ workload: await client.get(namespace, WORKLOAD), trusts: await trustsNewAlone(), done: await statefulSetDone() }),
        ({ workload, trusts, done }) => trusts && done && scenario.healthy(workload),
        STEPS * ROLL_TIMEOUT_MS,
        1_000,
      );
    });
    const completed = await scenario.waitCompleted('the last roll to complete', started);
    const seconds = (Date.now() - started.getTime()) / 1000;
    await history.stop();
    const report = await probe.stop();
    console.log(figures('CA rotation, three rolls', report, seconds));
    console.log(
      `CA rotation: writes acknowledged ${String(report.writes.acknowledged)}, lost ${String(report.writes.lost.length)}, of unknown outcome ` +
        `${String(report.writes.unacknowledged)}; leader changes ${String(report.leaders.leaderChanges)}; restarts ${JSON.stringify(history.counts())}; ` +
        `steps shown ${steps.join(' -> ')}; ${seconds.toFixed(0)} s`,
    );

    expect(steps).toEqual([1, 2, 3]);
    scenario.expectRollsInARow(history, report, STEPS);
    expect(completed.status).toMatchObject({ updatedReplicas: MEMBERS, pendingReplicas: 0, leaderRestarted: true });

    const workload = await client.get(namespace, WORKLOAD);
    expect(workload.status?.conditions?.find((condition) => condition.type === 'Progressing')?.reason).not.toBe('RotatingCa');
    const notes = (await eventsAbout(client, namespace, WORKLOAD))
      .filter((event) => event.reason === 'RotatingCa')
      .sort((a, b) => new Date(a.eventTime ?? 0).getTime() - new Date(b.eventTime ?? 0).getTime())
      .map((event) => event.note ?? '');
    expect(notes).toEqual([1, 2, 3].map((step) => expect.stringContaining(`step ${String(step)} of 3 (`) as unknown));

    expect(await memberCa()).toBe(new X509Certificate(newCa.certificate).toString());
    const pods = (await client.core.listNamespacedPod({ namespace, labelSelector: memberSelectorOf(WORKLOAD) })).items;
    expect(pods).toHaveLength(MEMBERS);
    for (const pod of pods) {
      const ip = pod.status?.podIP ?? '';
      expect(await verifiesTo(ip, newCa.certificate)).toBe(true);
      expect(await verifiesTo(ip, oldCa.certificate)).toBe(false);
    }
  }, 4 * ROLL_TIMEOUT_MS);
});
