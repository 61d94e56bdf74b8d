// The scale trait from and to a single member, on real ZooKeeper with a client writing throughout: 1 -> 3 -> 1 with
// removedMemberVolumePolicy Delete (the removed members' volumes go), the trait applied with kubectl, every step
// announced as Kubernetes Events and NATS events, unbinding on deletion; and a trait without its workload reports Blocked.
import { eventFilterSubject, memberSelectorOf, SCALE_BINDING_ANNOTATION, statefulSetNameOf, volumeName, type ZkEvent } from '@zk-oam/apis';
import { connectEventBus, createLogger } from '@zk-oam/runtime';
import { Registry } from 'prom-client';
import { afterAll, describe, expect, it } from 'vitest';
import { bedWorkloadSpec, kubectl } from '../src/controllers/index.js';
import { measured } from './scale-measure.js';
import { ensembleTruth, settledAt, traitCondition, traitEvents, useScaleController, waitFor, waitScaled as waitScaledIn } from './scale-support.js';
import { workerBed } from '../src/worker-bed.js';

const bed = workerBed();
const suite = useScaleController(bed, { namespacePrefix: 'scale-small' });
const { client, traits, namespace } = suite;
const name = 'solo';
const trait = 'solo-size';
const selector = memberSelectorOf(name);

const listPods = async () => (await client.core.listNamespacedPod({ namespace, labelSelector: selector })).items;
const readTrait = () => traits.get(namespace, trait);
const watch = { listPods, trait: readTrait };

const seen: ZkEvent[] = [];
const bus = connectEventBus({
  servers: bed.nats.url,
  user: bed.nats.user,
  password: bed.nats.password,
  name: 'scale-small-test',
  registry: new Registry(),
  log: createLogger({ name: 'scale-small-test', level: 'silent' }),
});
bus.subscribe({
  durable: `scale-small-test-${Date.now().toString(36)}`,
  filterSubjects: [eventFilterSubject({ namespace })],
  deliverPolicy: 'all',
  handler: (event) => {
    seen.push(event);
  },
});
afterAll(async () => {
  await bus.close();
});

const waitScaled = (size: number): Promise<void> => waitScaledIn(traits, { namespace, trait, listPods }, size);

function stepEvents(type: 'ScaleStepStarted' | 'ScaleStepCompleted'): string[] {
  return seen.flatMap((event) => (event.type === type ? [`${event.data.member ?? ''} ${event.data.from}->${event.data.to}`] : []));
}

describe('the scale controller from and to one member', () => {
  it('reports Blocked with WorkloadNotFound for a trait whose workload does not exist', async () => {
    await traits.create(namespace, 'orphan', { workloadRef: { name: 'no-such-workload' }, replicas: 3 });
    const blocked = await waitFor('the orphan Blocked', () => traits.get(namespace, 'orphan'), (found) => found.status?.phase === 'Blocked', 60_000);
    expect(traitCondition(blocked, 'Blocked')).toMatchObject({ status: 'True', reason: 'WorkloadNotFound' });
    expect(traitCondition(blocked, 'Blocked')?.message).toContain('no-such-workload');
  });

  it('scales 1 -> 3, the trait applied with kubectl', async () => {
    await client.create(namespace, name, bedWorkloadSpec({ replicas: 1 }));
    await waitFor('a serving single member', () => ensembleTruth(listPods), (found) => settledAt(found, 1), 300_000, 1_000);
    const manifest = {
      apiVersion: 'scale.zookeeper.zkoam.dev/v1alpha1',
      kind: 'ZookeeperScale',
      metadata: { name: trait, namespace },
      spec: { workloadRef: { name }, replicas: 3, removedMemberVolumePolicy: 'Delete' },
    };
    const report = await measured('1 -> 3', watch, async () => {
      await kubectl(bed, ['apply', '-f', '-'], JSON.stringify(manifest));
      await waitScaled(3);
    });
    expect(report.writes.lost).toEqual([]);
    expect(report.leaders.elections).toBe(0);
  });

  it('scales 3 -> 1 and deletes the removed members\' volumes', async () => {
    const report = await measured('3 -> 1, volumes deleted', watch, async () => {
      await traits.scale(namespace, trait, 1);
      await waitScaled(1);
    });
    expect(report.writes.lost).toEqual([]);
    const claims = await waitFor(
      'the removed members\' volumes gone',
      async () => (await client.core.listNamespacedPersistentVolumeClaim({ namespace })).items.map((claim) => claim.metadata?.name),
      (names) => names.length === 1,
      60_000,
    );
    expect(claims).toEqual([volumeName(statefulSetNameOf(name), 0)]);
  });

  it('announced every step as a Kubernetes Event on the trait and a NATS event about the workload', async () => {
    const expected = [`${name}-1 1->2`, `${name}-2 2->3`, `${name}-2 3->2`, `${name}-1 2->1`];
    await waitFor('the NATS step events', () => Promise.resolve(stepEvents('ScaleStepCompleted')), (found) => found.length >= 4, 30_000);
    expect(stepEvents('ScaleStepStarted')).toEqual(expected);
    expect(stepEvents('ScaleStepCompleted')).toEqual(expected);
    const reasons = (await traitEvents(bed, namespace, trait)).map((event) => event.reason);
    expect(reasons).toEqual(expect.arrayContaining(['ScaleStepStarted', 'ScaleStepCompleted', 'RaiseReplicas', 'ReconfigAdd', 'ReconfigRemove', 'LowerReplicas', 'DeleteVolume']));
  });

  it('unbinds when the trait is deleted: the workload loses the annotation and keeps its size', async () => {
    await kubectl(bed, ['delete', 'zks', trait, '-n', namespace, '--wait=true', '--timeout=60s']);
    const workload = await client.get(namespace, name);
    expect(workload.metadata.annotations?.[SCALE_BINDING_ANNOTATION]).toBeUndefined();
    expect(workload.spec.replicas).toBe(1);
  });
});
