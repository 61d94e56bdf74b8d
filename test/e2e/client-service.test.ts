// What a client application is given: the client Service's DNS name and port, nothing else. ZooKeeper's own Java
// client, resolving through cluster DNS as a client in a pod does, writes throughout a scale 3 -> 5 -> 3 by the scale
// trait and a rolling restart by the rolling trait, and loses no acknowledged write. The Service's ClusterIP answers
// from the bed's side too.
import { derivedNames, memberSelectorOf, ZOOKEEPER_PORTS } from '@zk-oam/apis';
import { srvrThroughService } from '../src/service-srvr.js';
import { describe, expect, it } from 'vitest';
import { bedWorkloadSpec, isReady, waitFor } from '../src/controllers/index.js';
import { JavaWriter } from '../src/ensemble-probe/index.js';
import { RollingClient } from './rolling-fixtures.js';
import { ROLL_TIMEOUT_MS, RollScenario, useRollingController } from './rolling-scenario.js';
import { useScaleController, waitScaled } from './scale-support.js';
import { writerSummary, WritesPerStep } from './tls-fixtures.js';
import { workerBed } from '../src/worker-bed.js';

const bed = workerBed();
const suite = useScaleController(bed, { namespacePrefix: 'client-service' });
useRollingController(bed);
const { client, traits, namespace } = suite;
const rolling = new RollingClient(bed);
const WORKLOAD = 'zkc';
const SCALE_TRAIT = 'size';
const ROLLING_TRAIT = 'roll';
const ENSEMBLE_TIMEOUT_MS = 420_000;
const clientServiceName = `${derivedNames(WORKLOAD).clientService}.${namespace}.svc.cluster.local`;
const roll = new RollScenario({ client, traits: rolling, namespace, workload: WORKLOAD, trait: ROLLING_TRAIT, members: 3 });
const listPods = async () => (await client.core.listNamespacedPod({ namespace, labelSelector: memberSelectorOf(WORKLOAD) })).items;

describe('a client that knows only the client Service’s name', () => {
  it('finds the ensemble Ready, and its client Service’s ClusterIP answers srvr from the bed’s side', async () => {
    await client.create(namespace, WORKLOAD, bedWorkloadSpec({ replicas: 3 }));
    await rolling.create(namespace, ROLLING_TRAIT, WORKLOAD);
    await waitFor(
      'the workload Ready with a leader and 3 synced members',
      () => client.get(namespace, WORKLOAD),
      (workload) => isReady(workload) && workload.status?.leader !== undefined && workload.status.members?.length === 3 && workload.status.members.every((member) => member.synced),
      ENSEMBLE_TIMEOUT_MS,
    );
    const service = await client.core.readNamespacedService({ namespace, name: derivedNames(WORKLOAD).clientService });
    const srvr = await srvrThroughService(service.spec?.clusterIP ?? '');
    expect(['leader', 'follower']).toContain(srvr.mode);
  }, ENSEMBLE_TIMEOUT_MS + 60_000);

  it('writes through a scale 3 -> 5 -> 3 and a rolling restart with no acknowledged write lost', async () => {
    const writer = await JavaWriter.start({ resolvConf: bed.resolvConf }, `${clientServiceName}:${String(ZOOKEEPER_PORTS.client)}`, '/through-the-service');
    const steps = new WritesPerStep(writer);
    await steps.step(async () => {
      await traits.create(namespace, SCALE_TRAIT, { workloadRef: { name: WORKLOAD }, replicas: 5 });
      await waitScaled(traits, { namespace, trait: SCALE_TRAIT, listPods }, 5);
    });
    await steps.step(async () => {
      await traits.scale(namespace, SCALE_TRAIT, 3);
      await waitScaled(traits, { namespace, trait: SCALE_TRAIT, listPods }, 3);
    });
    await steps.step(async () => {
      const started = new Date();
      await rolling.patch(namespace, ROLLING_TRAIT, { spec: { restartTrigger: 'through-the-service' } });
      await roll.waitCompleted('the rolling restart Completed', started);
    });
    const report = await writer.stop();
    console.log(writerSummary(`through ${clientServiceName}: 3 -> 5 -> 3, then a rolling restart`, report, steps.counts));
    expect(report.lost).toEqual([]);
    expect(steps.counts.every((count) => count > 0)).toBe(true);
  }, 2 * ROLL_TIMEOUT_MS);
});
