// Membership changes on an ensemble with quorum TLS and a secure client port beside the plain one (tls.client
// Alongside), with a client writing over TLS throughout (ZooKeeper's own Java client): every member answers srvr alike
// on both client ports, then 3 -> 5 -> 3 by the scale trait. No acknowledged write is lost.
// The controllers reconfigure over the plain port (the Node binding has no TLS); the members talk TLS among themselves.
// A new certificate rolled out leader last with a client writing over TLS is workload-tls-renewal.test.ts's; the
// certificate issued again when its Secret is lost, workload-tls.test.ts's.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memberHost, memberSelectorOf, TLS_SECRET_KEYS, ZOOKEEPER_PORTS } from '@zk-oam/apis';
import { fourLetterWord, parseSrvr } from '@zk-oam/zookeeper';
import { afterAll, describe, expect, it } from 'vitest';
import { bedWorkloadSpec, isReady, waitFor } from '../src/controllers/index.js';
import { JavaWriter } from '../src/ensemble-probe/index.js';
import { useScaleController, waitScaled } from './scale-support.js';
import { secureConnectString, tlsSecretValue, writeCaFile, writerSummary, WritesPerStep } from './tls-fixtures.js';
import { workerBed } from '../src/worker-bed.js';

const bed = workerBed();
const suite = useScaleController(bed, { namespacePrefix: 'scale-tls' });
const { client, traits, namespace } = suite;
const WORKLOAD = 'zks';
const SCALE_TRAIT = 'size';
const ENSEMBLE_TIMEOUT_MS = 420_000;
const listPods = async () => (await client.core.listNamespacedPod({ namespace, labelSelector: memberSelectorOf(WORKLOAD) })).items;
const tlsWorkload = { client, namespace, workload: WORKLOAD };
const dir = await mkdtemp(join(tmpdir(), 'scale-tls-'));
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('scale an ensemble with quorum TLS while a client writes over TLS', () => {
  it('becomes Ready, observed on the plain port, and answers on both client ports, over TLS with the workload CA', async () => {
    await client.create(namespace, WORKLOAD, bedWorkloadSpec({ replicas: 3, tls: { quorum: true, client: 'Alongside' } }));
    await waitFor(
      'the workload with both client ports Ready with a leader and 3 synced members',
      () => client.get(namespace, WORKLOAD),
      (workload) => isReady(workload) && workload.status?.leader !== undefined && workload.status.members?.length === 3 && workload.status.members.every((member) => member.synced),
      ENSEMBLE_TIMEOUT_MS,
    );
    const ca = (await tlsSecretValue(tlsWorkload, TLS_SECRET_KEYS.ca)).toString('utf8');
    const pods = await listPods();
    expect(pods).toHaveLength(3);
    for (const pod of pods) {
      const ip = pod.status?.podIP ?? '';
      const serverName = memberHost(WORKLOAD, namespace, Number(pod.metadata?.name?.split('-').pop()));
      const plain = parseSrvr(await fourLetterWord(ip, ZOOKEEPER_PORTS.client, 'srvr'));
      const secure = parseSrvr(await fourLetterWord(ip, ZOOKEEPER_PORTS.secureClient, 'srvr', { tls: { ca, serverName } }));
      expect(secure.mode).toBe(plain.mode);
    }
  }, ENSEMBLE_TIMEOUT_MS + 60_000);

  it('scales 3 -> 5 -> 3 with no acknowledged write lost', async () => {
    const caFile = await writeCaFile(tlsWorkload, dir);
    const writer = await JavaWriter.start({ caFile, resolvConf: bed.resolvConf }, await secureConnectString(tlsWorkload), '/tls-writes');
    const steps = new WritesPerStep(writer);

    await steps.step(async () => {
      await traits.create(namespace, SCALE_TRAIT, { workloadRef: { name: WORKLOAD }, replicas: 5 });
      await waitScaled(traits, { namespace, trait: SCALE_TRAIT, listPods }, 5);
    });
    await steps.step(async () => {
      await traits.scale(namespace, SCALE_TRAIT, 3);
      await waitScaled(traits, { namespace, trait: SCALE_TRAIT, listPods }, 3);
    });
    const report = await writer.stop();
    console.log(writerSummary('quorum TLS, client TLS alongside plain: 3 -> 5 -> 3', report, steps.counts));

    expect(report.lost).toEqual([]);
    expect(steps.counts.every((count) => count > 0)).toBe(true);
  });
});
