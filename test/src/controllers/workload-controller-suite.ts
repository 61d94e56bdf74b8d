// One workload controller per test file: registers vitest hooks that install the CRDs, start the controller with
// deploy/workload RBAC, create a fresh namespace, and afterwards remove the namespace and stop the controller cleanly.
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { BedInfo } from '../bed/index.js';
import { commandLineOf, startControllerProcess, stopCleanly, waitControllerReady, type ControllerProcess } from './controller-process.js';
import { imageNodeArgs, installCrds, repoRoot } from './manifests.js';
import { WorkloadClient } from './workload-fixtures.js';

export interface WorkloadControllerSuite {
  readonly client: WorkloadClient;
  readonly namespace: string;
  /** The running controller; throws when called before the suite's beforeAll ran. */
  controller(): ControllerProcess;
}

export function useWorkloadController(
  bed: BedInfo,
  options: { namespacePrefix: string; logLevel?: string; env?: Readonly<Record<string, string>> },
): WorkloadControllerSuite {
  const client = new WorkloadClient(bed);
  const namespace = `${options.namespacePrefix}-${Date.now().toString(36)}`;
  let running: ControllerProcess | undefined;
  beforeAll(async () => {
    await installCrds(bed);
    running = await startControllerProcess({ bed, name: 'workload', logLevel: options.logLevel ?? 'info', ...(options.env === undefined ? {} : { env: options.env }) });
    await waitControllerReady(running);
    // What runs is what ships: the bundle, nothing loaded through tsx, with the node arguments of the images.
    expect(await commandLineOf(running)).toEqual([process.execPath, ...(await imageNodeArgs()), join(repoRoot, 'controllers/workload/dist/main.mjs')]);
    await client.createNamespace(namespace);
  });
  afterAll(async () => {
    await client.deleteNamespace(namespace);
    // A clean exit means it finished its reconciles and released its lease.
    await stopCleanly(running);
  });
  return {
    client,
    namespace,
    controller: () => {
      if (running === undefined) throw new Error('the workload controller has not been started');
      return running;
    },
  };
}
