// The scale trait controller as a process with only deploy/scale RBAC, against real ZooKeeper on the bed: one
// ensemble goes 3 -> 5 -> 3 -> 5 -> 3, one member at a time, ending each time with the committed config equal to the pods.
import { describe, expect, inject, it } from 'vitest';
import { bedWorkloadSpec } from '../src/controllers/index.js';
import { ensembleTruth, settledAt, traitCondition, useScaleController, waitFor } from './scale-support.js';

const bed = inject('bed');
const suite = useScaleController(bed, { namespacePrefix: 'scale' });
const { client, traits, namespace } = suite;
const name = 'zk';
const trait = 'zk-size';
const selector = `app.kubernetes.io/instance=${name},app.kubernetes.io/component=server`;
const SCALE_TIMEOUT_MS = 300_000;

const listPods = async () => (await client.core.listNamespacedPod({ namespace, labelSelector: selector })).items;

async function waitScaled(size: number): Promise<void> {
  const scaled = await waitFor(
    `the trait Idle at ${size}`,
    () => traits.get(namespace, trait),
    (current) => current.status?.phase === 'Idle' && current.status.replicas === size && traitCondition(current, 'Ready')?.status === 'True',
    SCALE_TIMEOUT_MS,
    1_000,
  );
  expect(scaled.status?.targetReplicas).toBe(size);
  const truth = await waitFor(`ZooKeeper settled at ${size}`, () => ensembleTruth(listPods), (seen) => settledAt(seen, size), 60_000, 1_000);
  expect(truth.committed).toEqual(truth.podIds);
}

describe('the scale controller on the bed', () => {
  it('binds to a 3-member workload and reports it Idle at 3', async () => {
    await client.create(namespace, name, bedWorkloadSpec());
    await traits.create(namespace, trait, { workloadRef: { name }, replicas: 3 });
    await waitScaled(3);
    const workload = await client.get(namespace, name);
    expect(workload.metadata.annotations?.['scale.zookeeper.zkoam.dev/trait']).toBe(trait);
  });

  it('scales 3 -> 5 one member at a time', async () => {
    await traits.scale(namespace, trait, 5);
    await waitScaled(5);
  });

  it('scales 5 -> 3 one member at a time', async () => {
    await traits.scale(namespace, trait, 3);
    await waitScaled(3);
  });
});
