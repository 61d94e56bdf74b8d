import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CONTROLLER_NAMES } from '../bed/controller-images.js';
import { deploymentRuntimeEnv, readManifests, repoRoot } from './manifests.js';

const limitSchema = z.looseObject({
  spec: z.looseObject({
    template: z.looseObject({
      spec: z.looseObject({ containers: z.array(z.looseObject({ resources: z.looseObject({ limits: z.looseObject({ memory: z.string() }) }) })) }),
    }),
  }),
});

async function memoryLimitMiB(controller: string): Promise<number> {
  const [deployment] = (await readManifests(join(repoRoot, 'deploy', controller))).filter((object) => object['kind'] === 'Deployment');
  const memory = limitSchema.parse(deployment).spec.template.spec.containers[0]?.resources.limits.memory ?? '';
  const mebibytes = /^(\d+)Mi$/.exec(memory)?.[1];
  if (mebibytes === undefined) throw new Error(`memory limit ${memory} is not in Mi`);
  return Number(mebibytes);
}

describe("the controllers' Node runtime settings", () => {
  it.each(CONTROLLER_NAMES)('%s: the Deployment caps the heap at half its memory limit, and local runs take the same settings', async (controller) => {
    const env = await deploymentRuntimeEnv(controller);
    const heapMiB = Number(/--max-old-space-size=(\d+)/.exec(env['NODE_OPTIONS'] ?? '')?.[1]);
    expect(heapMiB).toBe((await memoryLimitMiB(controller)) / 2);
    expect(env['NODE_OPTIONS']).toContain('--max-semi-space-size=');
    expect(env['MALLOC_ARENA_MAX']).toBe('2');
    expect(Object.keys(env).sort()).toEqual(['MALLOC_ARENA_MAX', 'NODE_OPTIONS']);
  });
});
