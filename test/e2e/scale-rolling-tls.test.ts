// Membership changes and a rolling restart on an ensemble with quorum TLS and a secure client port beside the plain one
// (tls.client Alongside), with a client writing over TLS throughout (ZooKeeper's own Java client): 3 -> 5 -> 3 by the
// scale trait, then a new member certificate rolled out by the rolling trait, followers first and the leader last, each
// member serving the new one after. No acknowledged write is lost.
// The controllers reconfigure over the plain port (the Node binding has no TLS); the members talk TLS among themselves.
import { X509Certificate } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { derivedNames, memberSelectorOf, TLS_SECRET_KEYS, ZOOKEEPER_PORTS } from '@zk-oam/apis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { bedWorkloadSpec, PodHistory, waitFor } from '../src/controllers/index.js';
import { TlsWriter, type TlsWriterReport } from '../src/ensemble-probe/index.js';
import { memberPods, RollingClient, rollingCondition } from './rolling-fixtures.js';
import { RollScenario, useRollingController } from './rolling-scenario.js';
import { useScaleController, waitScaled } from './scale-support.js';

const bed = inject('bed');
const suite = useScaleController(bed, { namespacePrefix: 'scale-tls' });
const { client, traits, namespace } = suite;
useRollingController(bed);
const rollingTraits = new RollingClient(bed);
const WORKLOAD = 'zks';
const SCALE_TRAIT = 'size';
const ROLLING_TRAIT = 'roll';
const scenario = new RollScenario({ client, traits: rollingTraits, namespace, workload: WORKLOAD, trait: ROLLING_TRAIT, members: 3 });
const listPods = async () => (await client.core.listNamespacedPod({ namespace, labelSelector: memberSelectorOf(WORKLOAD) })).items;
const dir = await mkdtemp(join(tmpdir(), 'scale-rolling-tls-'));
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The members' secure client ports, as a TLS client is given them. */
async function secureConnectString(): Promise<string> {
  const pods = await listPods();
  return pods.map((pod) => `${pod.status?.podIP ?? ''}:${String(ZOOKEEPER_PORTS.secureClient)}`).join(',');
}

/** The serial number of the member certificate in the workload's Secret. */
async function issuedSerial(): Promise<string> {
  const secret = await client.core.readNamespacedSecret({ namespace, name: derivedNames(WORKLOAD).tlsSecret });
  return new X509Certificate(Buffer.from(secret.data?.[TLS_SECRET_KEYS.certificate] ?? '', 'base64')).serialNumber;
}

/** The serial number of the certificate a member presents on its secure client port, its chain verified to the CA. */
async function servedSerial(ip: string, caFile: string): Promise<string> {
  const socket = connect({ host: ip, port: ZOOKEEPER_PORTS.secureClient, ca: await readFile(caFile), checkServerIdentity: () => undefined });
  try {
    await once(socket, 'secureConnect');
    return socket.getPeerCertificate().serialNumber.toUpperCase();
  } finally {
    socket.destroy();
  }
}

function summary(what: string, report: TlsWriterReport, writesDuring: readonly number[]): string {
  return (
    `${what}: lost writes ${String(report.lost.length)} of ${String(report.acknowledged)} acknowledged over TLS, ` +
    `${String(report.unacknowledged)} unknown, sessions ${String(report.sessions)}, longest write gap ${String(report.longestGapMs)} ms, ` +
    `acknowledged during each step ${writesDuring.join(' / ')}`
  );
}

describe('scale and roll an ensemble with quorum TLS while a client writes over TLS', () => {
  it('scales 3 -> 5 -> 3 and rolls a new certificate out leader-last, with no acknowledged write lost', async () => {
    await client.create(namespace, WORKLOAD, bedWorkloadSpec({ replicas: 3, tls: { quorum: true, client: 'Alongside' } }));
    await scenario.waitHealthy();
    const secret = await client.core.readNamespacedSecret({ namespace, name: derivedNames(WORKLOAD).tlsSecret });
    const caFile = join(dir, 'ca.crt');
    await writeFile(caFile, Buffer.from(secret.data?.[TLS_SECRET_KEYS.ca] ?? '', 'base64'));
    const writer = await TlsWriter.start({ caFile, hostsFile: join(bed.dir, 'agent', 'hosts') }, await secureConnectString(), '/tls-writes');
    const writesDuring: number[] = [];
    const step = async (run: () => Promise<void>): Promise<void> => {
      const before = writer.count;
      await run();
      writesDuring.push(writer.count - before);
    };

    await step(async () => {
      await traits.create(namespace, SCALE_TRAIT, { workloadRef: { name: WORKLOAD }, replicas: 5 });
      await waitScaled(traits, { namespace, trait: SCALE_TRAIT, listPods }, 5);
    });
    await step(async () => {
      await traits.scale(namespace, SCALE_TRAIT, 3);
      await waitScaled(traits, { namespace, trait: SCALE_TRAIT, listPods }, 3);
    });
    const leader = (await scenario.waitHealthy()).status?.leader ?? '';
    const history = new PodHistory(memberPods(client, namespace, WORKLOAD), 3);
    await rollingTraits.create(namespace, ROLLING_TRAIT, WORKLOAD);
    await waitFor('the rolling trait bound and idle', () => scenario.trait(), (trait) => rollingCondition(trait, 'Bound')?.status === 'True' && trait.status?.phase === 'Idle', 60_000, 500);
    const oldSerial = await issuedSerial();
    await step(async () => {
      const started = new Date();
      await history.start();
      // A new member certificate, as a renewal gives: the controller issues one when the Secret is gone.
      await client.core.deleteNamespacedSecret({ namespace, name: derivedNames(WORKLOAD).tlsSecret });
      await scenario.waitCompleted('the roll onto the new certificate to complete', started);
      await scenario.waitHealthy();
      await history.stop();
    });
    const report = await writer.stop();
    console.log(summary('quorum TLS, client TLS alongside plain: 3 -> 5 -> 3, then a new certificate rolled out', report, writesDuring));

    expect(report.lost).toEqual([]);
    expect(writesDuring.every((count) => count > 0)).toBe(true);
    expect(history.counts()).toEqual(scenario.onePerPod());
    expect(history.order()).toEqual(scenario.expectedOrder(leader));
    const newSerial = await issuedSerial();
    expect(newSerial).not.toBe(oldSerial);
    for (const pod of await listPods()) {
      expect(await servedSerial(pod.status?.podIP ?? '', caFile)).toBe(newSerial);
    }
  });
});
