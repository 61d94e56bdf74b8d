// A pod worker stopped while its network sandbox is still being made: the fleet may start a worker for the same pod
// once this one is finished, and both would name the sandbox after the pod's uid.
import type { CoreV1Api, V1Pod } from '@kubernetes/client-node';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { pause } from '@zk-oam/runtime';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PodNetworks, PodSandbox } from './pod-network.js';
import { PodWorker, type PodWorkerDeps } from './pod-worker.js';

const pod: V1Pod = {
  metadata: { name: 'zk-2', namespace: 'ns', uid: 'f1f4263a-121a-449d-b6e7-b1d0e6440d43' },
  spec: { nodeName: 'bed-node-1', containers: [{ name: 'zookeeper', image: 'localhost/zk-oam/zookeeper:bed' }] },
};

/** A network whose create answers when the test says so; every step recorded in order. */
function slowNetwork(steps: string[]): { networks: PodNetworks; made: (sandbox: PodSandbox) => void; create: ReturnType<typeof vi.fn> } {
  let made: (sandbox: PodSandbox) => void = () => undefined;
  const create = vi.fn(
    () =>
      new Promise<PodSandbox>((resolve) => {
        made = (sandbox) => {
          steps.push('sandbox made');
          resolve(sandbox);
        };
      }),
  );
  const remove = vi.fn(() => {
    steps.push('sandbox released');
    return Promise.resolve();
  });
  return { networks: { nodeAddress: '10.64.0.1', create, remove } as unknown as PodNetworks, made: (sandbox) => made(sandbox), create };
}

describe('PodWorker stopped while its sandbox is being made', () => {
  let podsDir = '';
  afterEach(async () => {
    await rm(podsDir, { recursive: true, force: true });
  });

  it('finishes only once that sandbox is made and released, and makes no other', async () => {
    podsDir = await mkdtemp(join(tmpdir(), 'pod-worker-'));
    const steps: string[] = [];
    const network = slowNetwork(steps);
    const core = { patchNamespacedPodStatus: () => Promise.resolve({ metadata: { resourceVersion: '2' } }) } as unknown as CoreV1Api;
    const deps = { core, podsDir, networks: network.networks } as unknown as PodWorkerDeps;
    const worker = new PodWorker(pod, deps, pino({ level: 'silent' }), () => steps.push('finished'));

    worker.start();
    await vi.waitFor(() => expect(network.create).toHaveBeenCalledTimes(1));
    let stopped = false;
    const stopping = worker.stop('pod no longer listed', false, 0).then(() => {
      stopped = true;
    });
    await pause(50);
    expect(stopped).toBe(false);
    expect(steps).toEqual([]);

    network.made({ namespacePath: '/run/netns/bed-f1f4263a', podIP: '10.64.0.61' });
    await stopping;

    expect(steps).toEqual(['sandbox made', 'sandbox released', 'finished']);
    expect(network.create).toHaveBeenCalledTimes(1);
  });
});
