// Membership changes and a rolling restart on an ensemble with quorum TLS and a secure client port beside the plain one
// (tls.client Alongside), with a client writing over TLS throughout (ZooKeeper's own Java client): 3 -> 5 -> 3 by the
// scale trait, then a new member certificate rolled out by the rolling trait, followers first and the leader last, each
// member serving the new one after. No acknowledged write is lost.
// The controllers reconfigure over the plain port (the Node binding has no TLS); the members talk TLS among themselves.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { derivedNames, memberSelectorOf } from '@zk-oam/apis';
import { afterAll, describe, expect, it } from 'vitest';
import { bedWorkloadSpec, PodHistory, waitFor } from '../src/controllers/index.js';
import { TlsWriter } from '../src/ensemble-probe/index.js';
import { memberPods, RollingClient, rollingCondition } from './rolling-fixtures.js';
import { RollScenario, useRollingController } from './rolling-scenario.js';
import { useScaleController, waitScaled } from './scale-support.js';
import { issuedCertificate, secureConnectString, servedSerial, writeCaFile, writerSummary } from './tls-fixtures.js';
import { workerBed } from '../src/worker-bed.js';

const bed = workerBed();
const suite = useScaleController(bed, { namespacePrefix: 'scale-tls' });
const { client, traits, namespace } = suite;
useRollingController(bed);
const rollingTraits = new RollingClient(bed);
const WORKLOAD = 'zks';
const SCALE_TRAIT = 'size';
const ROLLING_TRAIT = 'roll';
const scenario = new RollScenario({ client, traits: rollingTraits, namespace, workload: WORKLOAD, trait: ROLLING_TRAIT, members: 3 });
const listPods = async () => (await client.core.listNamespacedPod({ namespace, labelSelector: memberSelectorOf(WORKLOAD) })).items;
const tlsWorkload = { client, namespace, workload: WORKLOAD };
const dir = await mkdtemp(join(tmpdir(), 'scale-rolling-tls-'));
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('scale and roll an ensemble with quorum TLS while a client writes over TLS', () => {
  it('scales 3 -> 5 -> 3 and rolls a new certificate out leader-last, with no acknowledged write lost', async () => {
    await client.create(namespace, WORKLOAD, bedWorkloadSpec({ replicas: 3, tls: { quorum: true, client: 'Alongside' } }));
    await scenario.waitHealthy();
    const caFile = await writeCaFile(tlsWorkload, dir);
    const writer = await TlsWriter.start({ caFile, hostsFile: join(bed.dir, 'agent', 'hosts') }, await secureConnectString(tlsWorkload), '/tls-writes');
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
    await waitFor('the rolling trait bound and idle', () => scenario.trait(), (trait) => rollingCondition(trait, 'Bound')?.status === 'True' && trait.status?.phase === 'Idle', 60_000);
    const oldSerial = (await issuedCertificate(tlsWorkload)).serialNumber;
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
    console.log(writerSummary('quorum TLS, client TLS alongside plain: 3 -> 5 -> 3, then a new certificate rolled out', report, writesDuring));

    expect(report.lost).toEqual([]);
    expect(writesDuring.every((count) => count > 0)).toBe(true);
    expect(history.counts()).toEqual(scenario.onePerPod());
    expect(history.order()).toEqual(scenario.expectedOrder(leader));
    const newSerial = (await issuedCertificate(tlsWorkload)).serialNumber;
    expect(newSerial).not.toBe(oldSerial);
    for (const pod of await listPods()) {
      expect(await servedSerial(pod.status?.podIP ?? '', caFile)).toBe(newSerial);
    }
  });
});
